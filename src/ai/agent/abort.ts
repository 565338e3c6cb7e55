import { abortError as abortErrorOf } from '../../internal/abort-error.ts';

/** The error a run rejects with when `signal` aborted (see `src/internal/abort-error.ts`). */
export const abortError = (signal: AbortSignal): Error =>
  abortErrorOf(signal, 'The agent run was aborted');

/**
 * Settles like `promise`, or rejects with an `AbortError` as soon as `signal` aborts,
 * so a model or tool that ignores its signal cannot hang the run. A late rejection of
 * `promise` is handled, never reported as unhandled.
 */
export function raceAbort<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    Promise.resolve(promise).catch(() => {});
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
