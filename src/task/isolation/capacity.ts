/**
 * How many workers isolated tasks may run at once in this thread, and how many calls
 * may wait for one: process-wide settings, because threads and memory are.
 */
import { availableParallelism } from 'node:os';
import { describeValue } from '../../internal/describe-value.ts';

/** The limits of the workers of isolated tasks (decision 132). */
export interface IsolationCapacity {
  /**
   * The most workers alive at once, running or idle (default the number of CPUs, at
   * least 2). A call that finds none free waits in a queue.
   */
  maxWorkers: number;
  /** The most calls waiting for a worker (default 1,000); one more fails at once. */
  maxQueuedCalls: number;
}

const DEFAULTS: Readonly<IsolationCapacity> = Object.freeze({
  maxWorkers: Math.max(2, availableParallelism()),
  maxQueuedCalls: 1000,
});

let current: Readonly<IsolationCapacity> = DEFAULTS;

/** The limits in force. */
export function isolationCapacity(): Readonly<IsolationCapacity> {
  return current;
}

/**
 * Sets the limits of the workers that run isolated tasks (`isolation: 'worker'`) in this
 * thread; the limits not given keep their value, `configureIsolation()` restores the
 * defaults. Returns the limits now in force. A lower `maxWorkers` takes effect as calls
 * start and finish (idle workers above it are ended); running calls go on. Throws a `RangeError` for a limit that is not a positive
 * integer.
 *
 * @example
 * ```ts
 * import { configureIsolation } from 'fino:task';
 *
 * configureIsolation({ maxWorkers: 2 }); // → { maxWorkers: 2, maxQueuedCalls: 1000 }
 * ```
 */
export function configureIsolation(
  limits?: Partial<IsolationCapacity>,
): Readonly<IsolationCapacity> {
  if (limits === undefined) {
    current = DEFAULTS;
    return current;
  }
  if (typeof limits !== 'object' || limits === null) {
    throw new TypeError(
      `configureIsolation: expected { maxWorkers?, maxQueuedCalls? }, received ${describeValue(limits)}`,
    );
  }
  const next = { ...current };
  for (const [key, value] of Object.entries(limits)) {
    if (key !== 'maxWorkers' && key !== 'maxQueuedCalls') {
      throw new TypeError(
        `configureIsolation: unknown limit ${JSON.stringify(key)}; expected maxWorkers or maxQueuedCalls`,
      );
    }
    if (value === undefined) continue;
    const least = key === 'maxWorkers' ? 1 : 0;
    if (!Number.isSafeInteger(value) || value < least) {
      throw new RangeError(
        `configureIsolation: ${key}: expected an integer of at least ${least}, received ${describeValue(value)}`,
      );
    }
    next[key] = value;
  }
  current = Object.freeze(next);
  return current;
}
