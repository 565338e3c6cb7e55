/**
 * The errors the task runtime itself raises. Reading a message out of any thrown value
 * and recognising control-flow errors live in `src/internal/thrown-value.ts`, shared
 * with the agent loop.
 */

/**
 * An executor returned something that is not a tool result (`{ content: 42 }`, a part
 * without its text, a value JSON cannot represent). The tool's fault, not the model's: the
 * message says so, so that a model does not retry the call with other arguments.
 */
export class InvalidResultError extends Error {
  override readonly name = 'InvalidResultError';
  constructor(
    readonly taskName: string,
    readonly reason: string,
  ) {
    super(
      `Tool "${taskName}" returned an invalid result (${reason}). This is a fault in the tool, not in the arguments: calling it again with different arguments will not help.`,
    );
  }
}

/**
 * A task exceeded its `timeoutMs`. Named `TimeoutError` like the reason of
 * `AbortSignal.timeout()`, so it is not mistaken for a caller's cancellation. `run()`
 * rejects with it; `invoke()` folds it into an `isError` result, or rethrows it when the
 * task has `throwOnError`.
 *
 * @example
 * ```ts
 * import { TaskTimeoutError, task } from 'fino:task';
 *
 * const slow = task({
 *   name: 'slow',
 *   timeoutMs: 10,
 *   run: (_input, ctx) =>
 *     new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('late'))),
 * });
 * try {
 *   await slow.run();
 * } catch (error) {
 *   if (error instanceof TaskTimeoutError) console.log(error.taskName, error.timeoutMs); // slow 10
 * }
 * ```
 */
export class TaskTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  constructor(
    readonly taskName: string,
    readonly timeoutMs: number,
  ) {
    super(`Tool "${taskName}" timed out after ${timeoutMs} ms`);
  }
}

/**
 * A command line that cannot be run as given: an unknown option, a missing value, an
 * invalid choice or input that fails validation. `hint` says where to get help.
 *
 * @example
 * ```ts
 * import { task, UsageError } from 'fino:task';
 *
 * try {
 *   task({ name: 'noop', run: () => '' }).parse(['--verbose']);
 * } catch (error) {
 *   if (error instanceof UsageError) console.error(error.message, error.hint);
 *   // unknown option --verbose; expected one of --help  Run "noop --help" for usage.
 * }
 * ```
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly hint = '',
  ) {
    super(message);
  }
}
