/**
 * Reading any thrown value safely: its message, and whether it is control flow
 * (`AbortError`, `SuspendSignal`) rather than failure. A thrown value may be hostile — a
 * throwing `message` getter, a Proxy, a revoked Proxy, throwing `toString`/`toJSON` — so
 * nothing here may throw. Shared by `Task.invoke()` and the agent loop. Decision 059.
 */

/** Names of errors that are control flow, not failure: `invoke()` always rethrows them. */
const CONTROL_FLOW = new Set(['AbortError', 'SuspendSignal']);

/**
 * `'AbortError'` or `'SuspendSignal'` for errors of those names, from any copy of any
 * module; `undefined` for anything else, including a value whose `name` cannot be read
 * (a throwing getter, a revoked Proxy). The name is read once.
 */
export function controlFlowName(error: unknown): 'AbortError' | 'SuspendSignal' | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  try {
    const name: unknown = (error as { name?: unknown }).name;
    return typeof name === 'string' && CONTROL_FLOW.has(name)
      ? (name as 'AbortError' | 'SuspendSignal')
      : undefined;
  } catch {
    return undefined;
  }
}

/** True for errors named `AbortError` or `SuspendSignal` (see {@link controlFlowName}). */
export function isControlFlow(error: unknown): boolean {
  return controlFlowName(error) !== undefined;
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
