/**
 * One attempt of a model request (decision 105): its own abort signal, the timer of the
 * wait it is in, and what a failure during it means — the caller's abort, a timeout, or
 * a failure worth another attempt ({@link Transient}).
 */
import { abortError } from '../../internal/abort-error.ts';
import { retriesNote } from './http.ts';
import { ModelError } from './model-error.ts';
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

  /** Awaits `work`, turning a failure into what it means (see {@link failure}). */
  async read<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      throw this.failure(error);
    }
  }

  /**
   * What `error`, raised during this attempt, means: the caller's abort (an `AbortError`),
   * one of the timeouts (a retryable {@link ModelError}, as a {@link Transient} while
   * nothing has been delivered), or itself.
   */
  failure(error: unknown): unknown {
    if (error instanceof Transient || error instanceof ModelError) return error;
    const caller = this.request.signal;
    if (caller?.aborted) return abortError(caller);
    if (this.expired === undefined) return error;
    if (this.noRetry) return this.timeoutError();
    return new Transient((retries) => this.timeoutError(retries));
  }

  /**
   * Set once no retry may follow (the stream's first event was handed over, or the final
   * error is being read): a timeout is then reported as it is.
   */
  noRetry = false;

  private timeoutError(retries = this.retries): ModelError {
    const { provider } = this;
    const { name, ms } = this.expired!;
    const what =
      name === 'firstByteMs'
        ? `no answer from ${this.request.url} within ${showMs(ms)}`
        : name === 'responseMs'
          ? `no complete answer from ${this.request.url} within ${showMs(ms)}`
          : `the stream from ${this.request.url} sent nothing for ${showMs(ms)} (keep-alive comments and pings do not count)`;
    return new ModelError(
      `${provider}: ${what}${retriesNote(retries)}; the limit is timeouts.${name}: raise it with ${provider}({ timeouts: { ${name} } })`,
      { provider, code: 'timeout', retryable: true },
    );
  }
}
