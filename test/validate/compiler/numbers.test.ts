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

  it('stays exact where the binary quotient rounds to a whole number', () => {
    expect(isMultipleOf(2e21, 3)).toBe(false);
    expect(isMultipleOf(3e21, 3)).toBe(true);
    expect(isMultipleOf(26804033826588760, 1.5)).toBe(false);
    expect(isMultipleOf(1585101720973723, 0.123456789)).toBe(false);
    expect(isMultipleOf(5e-324, 2)).toBe(false);
    expect(isMultipleOf(1.797693134862316e304, 0.0001)).toBe(true);
    expect(isMultipleOf(1e308, 0.5)).toBe(true);
    expect(isMultipleOf(-0.07, 0.01)).toBe(true);
    expect(isMultipleOf(0, 0.3)).toBe(true);
  });
});
