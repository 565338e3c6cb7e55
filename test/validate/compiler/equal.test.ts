import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../../../src/validate/compiler/equal.ts';

describe('jsonEqual', () => {
  it('compares JSON values structurally, ignoring key order', () => {
    expect(jsonEqual({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] })).toBe(true);
    expect(jsonEqual(1, 1.0)).toBe(true);
  });

  it('tells apart values JSON tells apart', () => {
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(0, false)).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual({ a: undefined }, { b: undefined })).toBe(false);
  });
});
