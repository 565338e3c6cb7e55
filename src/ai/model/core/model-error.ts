import type { ModelAttempt } from './types.ts';

/** What a {@link ModelError} carries besides its message. */
export interface ModelErrorDetails {
  /** `openai`, `anthropic`, … */
  provider: string;
  /** HTTP status, when the provider answered. */
  status?: number;
  /** The provider's own error message, from its error body. */
  providerMessage?: string;
  /**
   * The provider's error type or code (e.g. `invalid_request_error`, `rate_limit_exceeded`),
   * or fino's own: `timeout` (a wait of `timeouts` expired), `event_too_large` /
   * `body_too_large` / `answer_too_large` (past `maxEventBytes` / `maxBodyBytes` /
   * `maxAnswerChars`), `INVALID_ARGUMENT` (an option
   * or request field the model does not know).
   */
  code?: string;
  /** The provider's request id header, to quote to its support. */
  requestId?: string;
  /** Whether the failure was worth retrying (429, 5xx, network) — the retries were already spent. */
  retryable?: boolean;
  /** The parsed (or raw text) error body. */
  body?: unknown;
  cause?: unknown;
  /** Every model `fallback()` tried before giving up, this error's last (docs/model.md, "Fallback"). */
  attempts?: readonly ModelAttempt[];
}

/**
 * A failed model request: the provider refused it, failed, could not be reached or took
 * too long, or the request itself named an option the model does not know. The message
 * names the provider, the status and the provider's own message.
 *
 * @example
 * ```ts
 * import { ModelError, openai } from 'fino:ai/model';
 *
 * try {
 *   await openai({ model: 'gpt-4o-mini', apiKey: 'wrong' }).generate({ messages: [] });
 * } catch (error) {
 *   if (error instanceof ModelError) console.log(error.status, error.providerMessage, error.requestId);
 * }
 * ```
 */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  readonly provider: string;
  readonly status?: number;
  readonly providerMessage?: string;
  readonly code?: string;
  readonly requestId?: string;
  readonly retryable: boolean;
  readonly body?: unknown;
  /** Set by `fallback()`: every model it tried, in order, each with its error. */
  readonly attempts?: readonly ModelAttempt[];

  constructor(message: string, details: ModelErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.provider = details.provider;
    this.status = details.status;
    this.providerMessage = details.providerMessage;
    this.code = details.code;
    this.requestId = details.requestId;
    this.retryable = details.retryable ?? false;
    this.body = details.body;
    if (details.attempts !== undefined) this.attempts = details.attempts;
  }
}
