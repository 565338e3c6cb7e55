import { report } from '../state.ts';
import type { Checks, NodeScope } from './scope.ts';

/** A finite number's shortest decimal form as `digits × 10^exponent` (`1.5e-7` → 15n, -8). */
function decimal(value: number): { digits: bigint; exponent: number } {
  const [mantissa, exponent = '0'] = String(Math.abs(value)).split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  return { digits: BigInt(whole + fraction), exponent: Number(exponent) - fraction.length };
}

/**
 * Is `value` a multiple of `divisor`? Exact in JSON's decimal numbers, as the test suite
 * reads them: `0.0075` is a multiple of `0.0001`, `2e21` is not a multiple of `3`, and
 * `5e-324` is not a multiple of `2`. Two integers use the remainder, which is exact in
 * floating point; anything else compares the numbers' shortest decimal forms with
 * BigInt arithmetic, since a binary quotient rounds (beyond 2^53 it is always "whole").
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (Number.isInteger(value) && Number.isInteger(divisor)) return value % divisor === 0;
  const a = decimal(value);
  const b = decimal(divisor);
  const exponent = Math.min(a.exponent, b.exponent);
  const scaledValue = a.digits * 10n ** BigInt(a.exponent - exponent);
  const scaledDivisor = b.digits * 10n ** BigInt(b.exponent - exponent);
  return scaledValue % scaledDivisor === 0n;
}

/**
 * `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`: one closure
 * tests all bounds at once; only a failing value is checked bound by bound for issues.
 */
export function compileNumbers(scope: NodeScope, checks: Checks): void {
  const { read } = scope;
  const minimum = read.number('minimum');
  const maximum = read.number('maximum');
  const exclusiveMinimum = read.number('exclusiveMinimum');
  const exclusiveMaximum = read.number('exclusiveMaximum');
  const multipleOf = read.positiveNumber('multipleOf');
  const bounds: Array<[keyword: string, test: (n: number) => boolean, expected: string]> = [];
  if (minimum !== undefined) bounds.push(['minimum', (n) => n >= minimum, `number >= ${minimum}`]);
  if (maximum !== undefined) bounds.push(['maximum', (n) => n <= maximum, `number <= ${maximum}`]);
  if (exclusiveMinimum !== undefined) {
    bounds.push(['exclusiveMinimum', (n) => n > exclusiveMinimum, `number > ${exclusiveMinimum}`]);
  }
  if (exclusiveMaximum !== undefined) {
    bounds.push(['exclusiveMaximum', (n) => n < exclusiveMaximum, `number < ${exclusiveMaximum}`]);
  }
  if (multipleOf !== undefined) {
    bounds.push(['multipleOf', (n) => isMultipleOf(n, multipleOf), `a multiple of ${multipleOf}`]);
  }
  if (bounds.length === 0) return;
  const low = Math.max(
    minimum ?? Number.NEGATIVE_INFINITY,
    exclusiveMinimum ?? Number.NEGATIVE_INFINITY,
  );
  const high = Math.min(
    maximum ?? Number.POSITIVE_INFINITY,
    exclusiveMaximum ?? Number.POSITIVE_INFINITY,
  );
  const lowExclusive =
    exclusiveMinimum !== undefined && exclusiveMinimum >= (minimum ?? Number.NEGATIVE_INFINITY);
  const highExclusive =
    exclusiveMaximum !== undefined && exclusiveMaximum <= (maximum ?? Number.POSITIVE_INFINITY);
  checks.number.push((data, st) => {
    const n = data as number;
    if (
      (lowExclusive ? n > low : n >= low) &&
      (highExclusive ? n < high : n <= high) &&
      (multipleOf === undefined || isMultipleOf(n, multipleOf))
    ) {
      return true;
    }
    if (st.issues === null) return false;
    for (const [keyword, test, expected] of bounds) {
      if (!test(n)) report(st, keyword, `expected ${expected}, received ${n}`, n);
    }
    return false;
  });
}
