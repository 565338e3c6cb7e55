/**
 * Error helpers shared by the task runtime: reading a message out of any thrown value,
 * recognising control-flow errors, and the errors the runtime itself raises.
 */

/** Names of errors that are control flow, not failure: `invoke()` always rethrows them. */
const CONTROL_FLOW = new Set(['AbortError', 'SuspendSignal']);

/** True for errors named `AbortError` or `SuspendSignal`, from any copy of any module. */
export function isControlFlow(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    CONTROL_FLOW.has((error as { name?: unknown }).name as string)
  );
}

/** A readable message for any thrown value: an `Error`'s message, a string, or its JSON. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string') return message;
  }
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/**
 * A task exceeded its `timeoutMs`. Named `TimeoutError` like the reason of
 * `AbortSignal.timeout()`, so it is not mistaken for a caller's cancellation.
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
