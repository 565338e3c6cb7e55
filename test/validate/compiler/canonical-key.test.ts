import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalKey } from '../../../src/validate/compiler/canonical-key.ts';
import { jsonEqual } from '../../../src/validate/compiler/equal.ts';

/** The same value with every object's keys in reverse order. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).reverse();
  return Object.fromEntries(entries.map(([key, item]) => [key, reordered(item)]));
}

describe('canonicalKey', () => {
  it('is one key for values JSON Schema calls equal', () => {
    expect(canonicalKey({ a: [1, { b: 2, c: 3 }], d: null })).toBe(
      canonicalKey({ d: null, a: [1, { c: 3, b: 2 }] }),
    );
    expect(canonicalKey(1)).toBe(canonicalKey(1.0));
    expect(canonicalKey(-0)).toBe(canonicalKey(0));
    expect(canonicalKey({ x: -0 })).toBe(canonicalKey({ x: 0 }));
  });

  it('tells apart values JSON Schema tells apart', () => {
    const distinct = [
      [1],
      { 0: 1 },
      '1',
      1,
      true,
      'true',
      null,
      'null',
      [],
      {},
      [[]],
      [{}],
      '',
      { '': '' },
    ];
    expect(new Set(distinct.map(canonicalKey)).size).toBe(distinct.length);
    expect(canonicalKey({ 'a":1,"b': 2 })).not.toBe(canonicalKey({ a: 1, b: 2 }));
    expect(canonicalKey(['a,b'])).not.toBe(canonicalKey(['a', 'b']));
  });

  it('gives equal keys exactly to jsonEqual values (JSON data)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(canonicalKey(a) === canonicalKey(b)).toBe(jsonEqual(a, b));
        expect(canonicalKey(reordered(a))).toBe(canonicalKey(a));
      }),
      { numRuns: 500 },
    );
  });
});
