/**
 * Which failed model requests were the provider's fault: the rule `fallback()` uses by
 * default to decide whether another model may answer instead.
 */
import { ModelError } from './core/index.ts';

/**
 * Whether a failed request was the provider's fault, so that another model may answer
 * it: a {@link ModelError} the transport marked retryable — 408, 409, 429 (a rate limit
 * whose retries were spent), 5xx (529 overloaded included), an `overloaded_error` or
 * `server_error` in a stream, a timeout, a connection refused or cut — after the
 * model's own retries. A 4xx the request caused (400, 401, 403, 404, 413, 422, a
 * context too long), an option the model does not know, the caller's abort and any
 * error that is not a `ModelError` are not: another model would fail them alike, or
 * they are the caller's to handle.
 *
 * @example
 * ```ts
 * import { isProviderFault, ModelError } from 'fino:ai/model';
 *
 * console.log(isProviderFault(new ModelError('openai: 503', { provider: 'openai', status: 503, retryable: true }))); // true
 * console.log(isProviderFault(new ModelError('openai: 400', { provider: 'openai', status: 400 }))); // false
 * ```
 */
export function isProviderFault(error: unknown): boolean {
  return error instanceof ModelError && error.retryable && error.code !== 'INVALID_ARGUMENT';
}
