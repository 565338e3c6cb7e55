/**
 * The one rule for the error an aborted operation rejects with, shared by the model
 * providers and the agent loop: the signal's reason when that is already an
 * `AbortError` (so a caller's own reason survives), else a new `AbortError` whose
 * `cause` is the reason. Recognised everywhere by `name`, never by class.
 */

/**
 * The error to throw when `signal` aborted.
 *
 * @example
 * ```ts
 * import { abortError } from './abort-error.ts';
 *
 * const controller = new AbortController();
 * controller.abort('user left');
 * abortError(controller.signal, 'The agent run was aborted').cause; // 'user left'
 * ```
 */
export function abortError(signal: AbortSignal, message = 'The operation was aborted'): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const error = new Error(message, { cause: reason });
  error.name = 'AbortError';
  return error;
}
