import { report } from '../state.ts';
import type { Checks, NodeScope } from './scope.ts';

/** Digits after the decimal point of a number's shortest representation (`1.5e-7` → 8). */
function decimals(value: number): number {
  const [mantissa, exponent] = String(value).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent ?? 0));
}

/**
 * Is `value` a multiple of `divisor`? Exact for decimal numbers: both are scaled to
 * integers by their decimal digits (so `0.0075` is a multiple of `0.0001`), falling back
 * to the quotient when scaling would leave the safe integers.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  const quotient = value / divisor;
  if (!Number.isFinite(quotient)) return false;
  if (Number.isInteger(quotient)) return true;
  const digits = Math.max(decimals(value), decimals(divisor));
  const scale = 10 ** digits;
  const scaledValue = Math.round(value * scale);
  const scaledDivisor = Math.round(divisor * scale);
  if (digits > 20 || !Number.isSafeInteger(scaledValue) || !Number.isSafeInteger(scaledDivisor))
    return false;
  return scaledValue % scaledDivisor === 0;
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
