/**
 * The cross-copy brand of tasks: `Symbol.for` makes a task built by another copy of
 * this package (a second install, a bundled copy) recognisable too.
 */
import type { AnyTask } from './types.ts';

/** The property every task carries, set to `true`. */
export const TASK_BRAND: unique symbol = Symbol.for('fino.task') as never;

/**
 * Tells whether a value is a task (any `Task` or `Tool`), even from another copy of fino.
 *
 * @example
 * ```ts
 * import { isTask, task } from 'fino:task';
 *
 * isTask(task({ name: 'noop', run: () => 'ok' })); // → true
 * isTask({ name: 'noop' }); // → false
 * ```
 */
export function isTask(value: unknown): value is AnyTask {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [TASK_BRAND]?: unknown })[TASK_BRAND] === true
  );
}
