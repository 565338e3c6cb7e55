import { canonicalKey } from '../canonical-key.ts';
import { jsonEqual } from '../equal.ts';
import { conforms, type Shape } from '../shape.ts';
import { child, report, type Validate } from '../state.ts';
import type { Checks, NodeScope } from './scope.ts';

const items = (count: number) => (count === 1 ? '1 item' : `${count} items`);

/**
 * Items from `from` on, each validated by `validate` (`items`, `additionalItems`); in the
 * fast pass by its `shape` (shape.ts).
 */
function rest(
  from: number,
  validate: Validate,
  shape: Shape,
  keyword: string,
  forbidden: boolean,
): Validate {
  return (data, st) => {
    const array = data as unknown[];
    if (st.issues === null && st.annot === null) {
      for (let i = from; i < array.length; i++) if (!conforms(shape, array[i], st)) return false;
      return true;
    }
    let ok = true;
    for (let i = from; i < array.length; i++) {
      const valid = forbidden
        ? report(
            st,
            keyword,
            `unexpected item: at most ${items(from)} allowed, received ${array.length}`,
            array[i],
            i,
          )
        : child(validate, array[i], i, st);
      if (!valid) {
        if (st.issues === null) return false;
        ok = false;
        if (forbidden) break;
      }
    }
    if (st.annot !== null) st.annot.items = Number.POSITIVE_INFINITY;
    return ok;
  };
}

/** Items `[0, n)` validated positionally (`prefixItems`, draft-07 array `items`). */
function prefix(validators: Validate[]): Validate {
  return (data, st) => {
    const array = data as unknown[];
    const end = Math.min(validators.length, array.length);
    let ok = true;
    for (let i = 0; i < end; i++) {
      if (!child(validators[i], array[i], i, st)) {
        if (st.issues === null) return false;
        ok = false;
      }
    }
    if (st.annot !== null && end > st.annot.items) st.annot.items = end;
    return ok;
  };
}

/**
 * Index of the first item equal to an earlier one, as `[earlier, later]`, or undefined.
 * Items are bucketed by canonical key (linear in the data), then compared within a bucket.
 */
function firstDuplicate(array: readonly unknown[]): [number, number] | undefined {
  if (array.every((item) => item === null || typeof item !== 'object')) {
    const seen = new Map<unknown, number>();
    for (let i = 0; i < array.length; i++) {
      const earlier = seen.get(array[i]);
      if (earlier !== undefined) return [earlier, i];
      seen.set(array[i], i);
    }
    return undefined;
  }
  const buckets = new Map<string, number[]>();
  for (let i = 0; i < array.length; i++) {
    const key = canonicalKey(array[i]);
    const bucket = buckets.get(key);
    if (bucket === undefined) {
      buckets.set(key, [i]);
      continue;
    }
    for (const j of bucket) if (jsonEqual(array[j], array[i])) return [j, i];
    bucket.push(i);
  }
  return undefined;
}

/** `prefixItems`, `items`, `additionalItems`, `contains` with `minContains`/`maxContains`, `minItems`, `maxItems`, `uniqueItems`. */
export function compileArrays(scope: NodeScope, checks: Checks): void {
  const { read, info, sub } = scope;
  const validation = info.dialect.validation;
  const schema = read.schema;
  const tuple =
    info.dialect.draft === 7 || Array.isArray(schema.items)
      ? Array.isArray(schema.items)
        ? 'items'
        : undefined
      : read.has('prefixItems')
        ? 'prefixItems'
        : undefined;
  const tupleSchemas = tuple === undefined ? undefined : read.array(tuple);
  if (tupleSchemas !== undefined && tuple !== undefined) {
    // A loop, not a callback naming `sub`: the closures made below would keep it, and with
    // it the whole compilation.
    const validators: Validate[] = [];
    for (let i = 0; i < tupleSchemas.length; i++)
      validators.push(sub(tupleSchemas[i], `${tuple}/${i}`));
    checks.array.push(prefix(validators));
  }
  const restKeyword = tuple === 'items' ? 'additionalItems' : 'items';
  if (read.has(restKeyword)) {
    const value = schema[restKeyword];
    const validate = sub(value, restKeyword);
    const shape = scope.ctx.shapeOf(value, validate);
    checks.array.push(
      rest(tupleSchemas?.length ?? 0, validate, shape, restKeyword, value === false),
    );
  }
  if (read.has('contains')) compileContains(scope, checks, sub(schema.contains, 'contains'));
  if (!validation) return;
  const minItems = read.count('minItems');
  const maxItems = read.count('maxItems');
  if (minItems !== undefined) {
    checks.array.push(
      (data, st) =>
        (data as unknown[]).length >= minItems ||
        report(
          st,
          'minItems',
          `expected at least ${items(minItems)}, received ${(data as unknown[]).length}`,
          data,
        ),
    );
  }
  if (maxItems !== undefined) {
    checks.array.push(
      (data, st) =>
        (data as unknown[]).length <= maxItems ||
        report(
          st,
          'maxItems',
          `expected at most ${items(maxItems)}, received ${(data as unknown[]).length}`,
          data,
        ),
    );
  }
  if (read.boolean('uniqueItems') === true) {
    checks.array.push((data, st) => {
      const duplicate = firstDuplicate(data as unknown[]);
      if (duplicate === undefined) return true;
      return report(
        st,
        'uniqueItems',
        `expected unique items, items ${duplicate[0]} and ${duplicate[1]} are equal`,
        data,
      );
    });
  }
}

function compileContains(scope: NodeScope, checks: Checks, validate: Validate): void {
  const { read, info } = scope;
  const counted = info.dialect.draft === 2020 && info.dialect.validation;
  const min = (counted ? read.count('minContains') : undefined) ?? 1;
  const max = counted ? read.count('maxContains') : undefined;
  checks.array.push((data, st) => {
    const array = data as unknown[];
    const issues = st.issues;
    st.issues = null;
    let found = 0;
    for (let i = 0; i < array.length; i++) {
      if (child(validate, array[i], i, st)) {
        found++;
        if (st.annot !== null) {
          st.annot.contains ??= new Set();
          st.annot.contains.add(i);
        }
      }
    }
    st.issues = issues;
    if (found < min) {
      return report(
        st,
        'contains',
        `expected at least ${items(min)} matching "contains", found ${found}`,
        data,
      );
    }
    if (max !== undefined && found > max) {
      return report(
        st,
        'maxContains',
        `expected at most ${items(max)} matching "contains", found ${found}`,
        data,
      );
    }
    return true;
  });
}
