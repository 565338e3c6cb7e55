import { FORMATS } from '../../formats/index.ts';
import { showValue } from '../describe.ts';
import type { SchemaPattern } from '../regex.ts';
import { report, type State } from '../state.ts';
import type { Checks, NodeScope } from './scope.ts';

/** Length in Unicode code points, as JSON Schema counts it (a surrogate pair is one character). */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

const characters = (count: number) => (count === 1 ? '1 character' : `${count} characters`);

/**
 * Fails a `minLength` or `maxLength` check with an issue naming the `expected` length and
 * `text`'s own, counted in code points only when issues are collected (not in the fast pass).
 */
const lengthIssue = (st: State, keyword: string, expected: string, text: string): boolean =>
  st.issues !== null &&
  report(st, keyword, `expected ${expected}, received ${characters(codePointLength(text))}`, text);

/**
 * `minLength`, `maxLength`, `pattern` and (when asserted) `format`. Returns the compiled
 * `pattern`, for the node's leaf test (leaf.ts).
 */
export function compileStrings(scope: NodeScope, checks: Checks): SchemaPattern | undefined {
  const { read, ctx } = scope;
  const minLength = read.count('minLength');
  const maxLength = read.count('maxLength');
  const pattern = read.string('pattern');
  const format = read.string('format');
  if (minLength !== undefined) {
    checks.string.push((data, st) => {
      const text = data as string;
      if (
        text.length >= minLength * 2 ||
        (text.length >= minLength && codePointLength(text) >= minLength)
      )
        return true;
      return lengthIssue(st, 'minLength', `at least ${characters(minLength)}`, text);
    });
  }
  if (maxLength !== undefined) {
    checks.string.push((data, st) => {
      const text = data as string;
      if (text.length <= maxLength || codePointLength(text) <= maxLength) return true;
      return lengthIssue(st, 'maxLength', `at most ${characters(maxLength)}`, text);
    });
  }
  const regex = pattern === undefined ? undefined : read.regex(pattern, 'pattern');
  if (pattern !== undefined && regex !== undefined) {
    checks.string.push(
      (data, st) =>
        regex.test(data as string) ||
        (st.issues !== null &&
          report(
            st,
            'pattern',
            `expected string matching /${pattern}/, received ${showValue(data)}`,
            data,
          )),
    );
  }
  if (format !== undefined && ctx.options.formats && Object.hasOwn(FORMATS, format)) {
    const test = FORMATS[format];
    checks.string.push(
      (data, st) =>
        test(data as string) ||
        (st.issues !== null &&
          report(st, 'format', `expected ${format} format, received ${showValue(data)}`, data)),
    );
  }
  return regex;
}
