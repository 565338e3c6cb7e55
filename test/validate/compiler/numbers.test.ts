import { describe, expect, it } from 'vitest';
import { isMultipleOf } from '../../../src/validate/compiler/keywords/numbers.ts';

describe('isMultipleOf', () => {
  it('is exact for decimal fractions that binary floating point cannot represent', () => {
    expect(isMultipleOf(0.3, 0.1)).toBe(true);
    expect(isMultipleOf(0.0075, 0.0001)).toBe(true);
    expect(isMultipleOf(4.02, 0.01)).toBe(true);
    expect(isMultipleOf(0.00751, 0.0001)).toBe(false);
    expect(isMultipleOf(1.5e-7, 5e-8)).toBe(true);
  });

  it('handles integers, huge quotients and non-multiples', () => {
    expect(isMultipleOf(10, 5)).toBe(true);
    expect(isMultipleOf(7, 2)).toBe(false);
    expect(isMultipleOf(1e308, 0.123456789)).toBe(false);
  });
});
