/**
 * One rule for every duration option in the package (`timeoutMs`, `leaseMs`,
 * `busyTimeoutMs`, retry delays…): a finite number of milliseconds within the range a
 * Node.js timer can wait. Node's timers treat anything above 2^31 − 1 ms (about 24.8
 * days) as 1 ms, so a larger value would fire at once; it is refused at construction
 * with a `RangeError` that names the option and the allowed range. Decision 050.
 */
import { describeValue } from './describe-value.ts';

/** The longest delay a Node.js timer honours: 2^31 − 1 ms, about 24.8 days. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the option may be: `positive` (> 0, the default) or `nonNegative` (≥ 0). */
export type DurationFloor = 'positive' | 'nonNegative';

/**
 * Returns `value` when it is a finite number of milliseconds in range, and throws a
 * `RangeError` naming `name` otherwise. `undefined` passes through (the option is unset).
 *
 * @example
 * ```ts
 * import { checkDuration } from './duration.ts';
 *
 * checkDuration('timeoutMs', 5_000); // 5000
 * checkDuration('timeoutMs', 2 ** 31); // RangeError: timeoutMs: expected …
 * ```
 */
export function checkDuration<T extends number | undefined>(
  name: string,
  value: T,
  floor: DurationFloor = 'positive',
): T {
  if (value === undefined) return value;
  const min = floor === 'positive' ? '> 0' : '≥ 0';
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (floor === 'positive' ? value > 0 : value >= 0) &&
    value <= MAX_TIMER_MS;
  if (!ok) {
    throw new RangeError(
      `${name}: expected a number of milliseconds ${min} and ≤ ${MAX_TIMER_MS} (about 24.8 days, the longest a Node.js timer waits), received ${describeValue(value)}`,
    );
  }
  return value;
}
