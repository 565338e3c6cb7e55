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

/** `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`. */
export function compileNumbers(scope: NodeScope, checks: Checks): void {
  const { read } = scope;
  const minimum = read.number('minimum');
  const maximum = read.number('maximum');
  const exclusiveMinimum = read.number('exclusiveMinimum');
  const exclusiveMaximum = read.number('exclusiveMaximum');
  const multipleOf = read.positiveNumber('multipleOf');
  if (minimum !== undefined) {
    checks.number.push(
      (data, st) =>
        (data as number) >= minimum ||
        report(st, 'minimum', `expected number >= ${minimum}, received ${data}`, data),
    );
  }
  if (maximum !== undefined) {
    checks.number.push(
      (data, st) =>
        (data as number) <= maximum ||
        report(st, 'maximum', `expected number <= ${maximum}, received ${data}`, data),
    );
  }
  if (exclusiveMinimum !== undefined) {
    checks.number.push(
      (data, st) =>
        (data as number) > exclusiveMinimum ||
        report(
          st,
          'exclusiveMinimum',
          `expected number > ${exclusiveMinimum}, received ${data}`,
          data,
        ),
    );
  }
  if (exclusiveMaximum !== undefined) {
    checks.number.push(
      (data, st) =>
        (data as number) < exclusiveMaximum ||
        report(
          st,
          'exclusiveMaximum',
          `expected number < ${exclusiveMaximum}, received ${data}`,
          data,
        ),
    );
  }
  if (multipleOf !== undefined) {
    checks.number.push(
      (data, st) =>
        isMultipleOf(data as number, multipleOf) ||
        report(st, 'multipleOf', `expected a multiple of ${multipleOf}, received ${data}`, data),
    );
  }
}
