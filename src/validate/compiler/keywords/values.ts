import { describeValue, showList, showValue } from '../describe.ts';
import { jsonEqual } from '../equal.ts';
import { once } from '../once.ts';
import { report } from '../state.ts';
import type { Checks, NodeScope } from './scope.ts';

const isPrimitive = (value: unknown) => value === null || typeof value !== 'object';

/** `enum` and `const`, by JSON equality (`1` equals `1.0`; key order does not matter). */
export function compileValues(scope: NodeScope, checks: Checks): void {
  const { read } = scope;
  if (read.has('const')) {
    const expected = read.schema.const;
    const shown = once(() => showValue(expected));
    const equals = isPrimitive(expected)
      ? (data: unknown) => data === expected
      : (data: unknown) => jsonEqual(data, expected);
    checks.any.push(
      (data, st) =>
        equals(data) ||
        (st.issues !== null &&
          report(st, 'const', `expected ${shown()}, received ${describeValue(data)}`, data)),
    );
  }
  const allowed = read.array('enum');
  if (allowed !== undefined) {
    // The list is rendered once, when first reported: not at compile time (most enums never
    // fail), not per issue.
    const shown = once(() => showList(allowed));
    const message = (data: unknown) =>
      `expected one of ${shown()}, received ${describeValue(data)}`;
    if (allowed.every(isPrimitive)) {
      const set = new Set(allowed);
      checks.any.push(
        (data, st) =>
          set.has(data) || (st.issues !== null && report(st, 'enum', message(data), data)),
      );
    } else {
      checks.any.push(
        (data, st) =>
          allowed.some((value) => jsonEqual(data, value)) ||
          (st.issues !== null && report(st, 'enum', message(data), data)),
      );
    }
  }
}
