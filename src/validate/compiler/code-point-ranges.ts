/** Sets of code points as sorted, disjoint `[low, high]` ranges: for pattern translation and analysis. */

export type Range = readonly [number, number];

export const MAX_CODE_POINT = 0x10ffff;

/** ECMAScript `\s`: WhiteSpace and LineTerminator (RE2's `\s` is ASCII only). */
export const SPACE: readonly Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

/** What ECMAScript `.` excludes without the `s` flag (RE2's `.` excludes only `\n`). */
export const LINE_TERMINATORS: readonly Range[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

/** ECMAScript `\d`. */
export const DIGIT: readonly Range[] = [[0x30, 0x39]];

/** ECMAScript `\w` (without the `i` flag). */
export const WORD: readonly Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];

/** Every code point not in `ranges` (sorted and disjoint). */
export function complement(ranges: readonly Range[]): Range[] {
  const result: Range[] = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) result.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

/** The code points in any of the sets, sorted and disjoint. */
export function union(...sets: ReadonlyArray<readonly Range[]>): Range[] {
  const all = sets.flat().sort((a, b) => a[0] - b[0]);
  const result: Array<[number, number]> = [];
  for (const [low, high] of all) {
    const last = result[result.length - 1];
    if (last !== undefined && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else result.push([low, high]);
  }
  return result;
}

/** Do two sorted, disjoint range lists share a code point? */
export function intersects(a: readonly Range[], b: readonly Range[]): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i][1] < b[j][0]) i++;
    else if (b[j][1] < a[i][0]) j++;
    else return true;
  }
  return false;
}
