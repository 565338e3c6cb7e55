/**
 * Error helpers shared by the task runtime: reading a message out of any thrown value,
 * recognising control-flow errors, and the errors the runtime itself raises.
 */

/** Names of errors that are control flow, not failure: `invoke()` always rethrows them. */
const CONTROL_FLOW = new Set(['AbortError', 'SuspendSignal']);

/**
 * True for errors named `AbortError` or `SuspendSignal`, from any copy of any module.
 * A value whose `name` cannot be read (a throwing getter, a revoked Proxy) is not.
 */
export function isControlFlow(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  try {
    const name: unknown = (error as { name?: unknown }).name;
    return typeof name === 'string' && CONTROL_FLOW.has(name);
  } catch {
    return false;
  }
}

/**
 * A readable message for any thrown value, never throwing: an `Error`'s message (its
 * name when the message is empty), a string, an object's string `message`, else its
 * JSON. A value that cannot be read or serialized (a throwing getter, `toJSON` or
 * `toString`, a revoked Proxy) is described by its type alone.
 */
export function errorMessage(error: unknown): string {
  try {
    const message = readMessage(error);
    if (message !== undefined) return message;
  } catch {
    // A hostile value: fall through to a description that reads nothing from it.
  }
  return `${kindOf(error)} was thrown`;
}

/** The message of `error`, or `undefined` when it has none worth showing. May throw. */
function readMessage(error: unknown): string | undefined {
  if (typeof error === 'string') return error === '' ? undefined : error;
  if (typeof error === 'symbol') return `${String(error)} was thrown`;
  if (typeof error === 'function' || error === null || error === undefined) return undefined;
  if (typeof error === 'object') {
    const message: unknown = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
    if (error instanceof Error) {
      const name: unknown = error.name;
      if (typeof name === 'string' && name !== '') return name;
    }
  }
  return JSON.stringify(error);
}

/** What a thrown value is, read from `typeof` alone (which never throws). */
function kindOf(error: unknown): string {
  if (error === null) return 'null';
  if (error === undefined) return 'undefined';
  if (error === '') return 'an empty string';
  return typeof error === 'object' ? 'an object that cannot be described' : `a ${typeof error}`;
}

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
