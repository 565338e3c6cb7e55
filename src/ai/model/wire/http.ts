import { abortError } from '../../../internal/abort-error.ts';
import { describeValue } from '../../../internal/describe-value.ts';
import { checkDuration } from '../../../internal/duration.ts';
import { isRecord, ModelError } from '../core/index.ts';

/** Retry settings shared by the HTTP providers. */
export interface RetryOptions {
  /** Retries after the first attempt on 408, 409, 429, 5xx and network failures (default 2). */
  maxRetries?: number;
  /** First backoff delay in ms, doubled per retry, with jitter (default 500). */
  initialRetryDelayMs?: number;
  /** Upper bound for any wait, including a server's `retry-after` (default 60 000). */
  maxRetryDelayMs?: number;
}

/**
 * Only the retry settings of a provider's options, checked: a provider calls this once,
 * when it is created, so a bad setting fails there with a `RangeError` naming it.
 */
export function retryOptionsOf(options: RetryOptions): RetryOptions {
  const { maxRetries, initialRetryDelayMs, maxRetryDelayMs } = options;
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) {
    throw new RangeError(
      `maxRetries: expected an integer ≥ 0, received ${describeValue(maxRetries)}`,
    );
  }
  checkDuration('initialRetryDelayMs', initialRetryDelayMs, 'nonNegative');
  checkDuration('maxRetryDelayMs', maxRetryDelayMs, 'nonNegative');
  return { maxRetries, initialRetryDelayMs, maxRetryDelayMs };
}

const RETRYABLE_STATUS = new Set([408, 409, 429]);

/** A failed response, its body read as `text`, as a {@link ModelError} naming status, provider message and request id. */
export function errorFromResponse(
  response: Response,
  text: string,
  options: { provider: string; requestIdHeader: string },
  retryable = false,
  retries = 0,
): ModelError {
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  const { message, code } = providerError(body);
  const requestId = response.headers.get(options.requestIdHeader) ?? undefined;
  const said = message ?? (text.slice(0, 500) || response.statusText);
  return new ModelError(
    `${options.provider}: ${response.status} ${said}${requestId ? ` (request id ${requestId})` : ''}${retriesNote(retries)}`,
    {
      provider: options.provider,
      status: response.status,
      providerMessage: message,
      code,
      requestId,
      retryable,
      body,
    },
  );
}

/** A {@link ModelError} for an error object a provider sent inside a stream. */
export function streamError(provider: string, body: unknown, requestId?: string): ModelError {
  const { message, code } = providerError(body);
  return new ModelError(
    `${provider}: error during the stream: ${message ?? JSON.stringify(body).slice(0, 500)}${requestId ? ` (request id ${requestId})` : ''}`,
    {
      provider,
      providerMessage: message,
      code,
      requestId,
      body,
      retryable: code === 'overloaded_error',
    },
  );
}

/**
 * The message and type/code of a provider error body: `{ error: { message, type, code } }`,
 * Google's `{ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }`, or `{ error: '…' }`.
 */
export function providerError(body: unknown): { message?: string; code?: string } {
  if (!isRecord(body)) return {};
  const error = body.error;
  if (typeof error === 'string') return { message: error };
  if (!isRecord(error)) return typeof body.message === 'string' ? { message: body.message } : {};
  const message = typeof error.message === 'string' ? error.message : undefined;
  // OpenAI names it `code` or `type`; Google's `code` is the HTTP status and `status` the name.
  const code = [error.code, error.type, error.status].find(
    (value): value is string => typeof value === 'string',
  );
  return { message, code };
}

/** Whether a failed response is worth another attempt (`x-should-retry` wins over the status). */
export function shouldRetry(response: Response): boolean {
  const hint = response.headers.get('x-should-retry');
  if (hint === 'true') return true;
  if (hint === 'false') return false;
  return RETRYABLE_STATUS.has(response.status) || response.status >= 500;
}

/** The server's requested wait in ms, from `retry-after-ms`, or `retry-after` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The n-th retry's wait: `initialDelay` × 2^attempt, capped, with up to 25 % jitter subtracted. */
export function backoff(attempt: number, initialDelay: number, maxDelay: number): number {
  const delay = Math.min(initialDelay * 2 ** attempt, maxDelay);
  return delay * (1 - Math.random() * 0.25);
}

/** ` after 2 retries`, or nothing before the first retry. */
export function retriesNote(retries: number): string {
  return retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
}

/** Waits `ms`, or rejects with an `AbortError` as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
