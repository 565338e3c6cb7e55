/**
 * One attempt of a model request (decision 105): its own abort signal, the timer of the
 * wait it is in, and what a failure during it means — the caller's abort, a timeout, the
 * connection cut, or a failure worth another attempt ({@link Transient}).
 */
import { abortError } from '../../../internal/abort-error.ts';
import { errorMessage } from '../../../internal/thrown-value.ts';
import { ModelError } from '../core/index.ts';
import { retriesNote } from './http.ts';
import { showMs, type TimeoutOptions } from './timeouts.ts';
import type { ProviderRequest } from './transport.ts';

/** A failure worth another attempt, and the error to throw when none is left. */
export class Transient {
  constructor(
    readonly final: (retries: number) => Promise<ModelError> | ModelError,
    /** The server's requested wait, when it gave one. */
    readonly hintedMs?: number,
    /** Releases what the failed attempt holds before the next one. */
    readonly discard?: () => Promise<void>,
  ) {}
}

/** A read of the answer's body, whose failure is the connection cut. */
export interface BodyRead {
  /** What is read: a `generate()` answer, or a `stream()`'s events. */
  what: 'answer' | 'stream';
  /** The provider's request id, from the answer's headers. */
  requestId?: string;
}

/**
 * What went wrong on the network, for an error message: undici's `fetch failed` and
 * `terminated` name only the step, their cause (`other side closed`, `connect
 * ECONNREFUSED …`) the reason.
 */
export function networkReason(error: unknown): string {
  const reason = errorMessage(error);
  const cause = error instanceof Error ? error.cause : undefined;
  return cause === undefined ? reason : `${reason}: ${errorMessage(cause)}`;
}

/**
 * One attempt of a request: its own abort signal (following the caller's), the one
 * timer running at a time, and what a failure during it means.
 */
export class Attempt {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The timeout that fired, with the wait it allowed. */
  private expired: { name: keyof TimeoutOptions; ms: number } | undefined;
  private readonly unlink: () => void;

  constructor(
    private readonly provider: string,
    private readonly timeouts: Required<TimeoutOptions>,
    private readonly request: ProviderRequest,
    readonly retries: number,
  ) {
    const caller = request.signal;
    if (caller === undefined) this.unlink = () => undefined;
    else {
      const follow = () => this.controller.abort(caller.reason);
      caller.addEventListener('abort', follow, { once: true });
      this.unlink = () => caller.removeEventListener('abort', follow);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Starts the `name` timer (replacing any other), which aborts the attempt after `ms`. */
  arm(name: keyof TimeoutOptions, ms: number): void {
    this.disarm();
    if (ms === Infinity) return;
    const allowed = this.timeouts[name];
    this.timer = setTimeout(
      () => {
        this.expired = { name, ms: allowed };
        this.controller.abort(new DOMException(`${name} expired`, 'TimeoutError'));
      },
      Math.max(0, ms),
    );
  }

  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The attempt is over: no timer, and the caller's signal no longer followed. */
  end(): void {
    this.disarm();
    this.unlink();
  }

  /**
   * Awaits `work`, turning a failure into what it means (see {@link failure}); `body`
   * when `work` reads the answer's body.
   */
  async read<T>(work: Promise<T>, body?: BodyRead): Promise<T> {
    try {
      return await work;
    } catch (error) {
      throw this.failure(error, body);
    }
  }

  /**
   * What `error`, raised during this attempt, means: the caller's abort (an `AbortError`),
   * one of the timeouts, or — while the answer's `body` is read — the connection cut
   * (undici's `TypeError: terminated`); both of these last are a retryable
   * {@link ModelError}, as a {@link Transient} while nothing has been delivered. Anything
   * else is itself.
   */
  failure(error: unknown, body?: BodyRead): unknown {
    if (error instanceof Transient || error instanceof ModelError) return error;
    const caller = this.request.signal;
    if (caller?.aborted) return abortError(caller);
    let report: (retries: number) => ModelError;
    if (this.expired !== undefined) report = (retries) => this.timeoutError(retries);
    else if (body !== undefined) report = (retries) => this.cutError(error, body, retries);
    else return error;
    return this.noRetry ? report(this.retries) : new Transient(report);
  }

  /**
   * Set once no retry may follow (the stream's first event was handed over, or the final
   * error is being read): a timeout is then reported as it is.
   */
  noRetry = false;

  private cutError(error: unknown, body: BodyRead, retries: number): ModelError {
    const { provider } = this;
    return new ModelError(
      `${provider}: the ${body.what} was cut: the connection to ${this.request.url} closed before the whole ${body.what} arrived (${networkReason(error)})${retriesNote(retries)}`,
      { provider, retryable: true, requestId: body.requestId, cause: error },
    );
  }

  private timeoutError(retries = this.retries): ModelError {
    const { provider } = this;
    const { name, ms } = this.expired!;
    const what =
      name === 'firstByteMs'
        ? `no answer from ${this.request.url} within ${showMs(ms)}`
        : name === 'responseMs'
          ? `no complete answer from ${this.request.url} within ${showMs(ms)}`
          : `the stream from ${this.request.url} sent no content for ${showMs(ms)} (keep-alive comments, pings and events that add nothing to the answer do not count)`;
    return new ModelError(
      `${provider}: ${what}${retriesNote(retries)}; the limit is timeouts.${name}: raise it with ${provider}({ timeouts: { ${name} } })`,
      { provider, code: 'timeout', retryable: true },
    );
  }
}
