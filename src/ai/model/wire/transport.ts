/**
 * The one way the HTTP providers talk to their servers: a POST with a JSON body, retried
 * on transient failures, bounded in time (decision 105) and in memory (decision 106), read
 * as one JSON answer or as a stream of JSON events. Each provider keeps only its wire
 * format: the URL, headers and body it sends, and what it makes of what comes back.
 */
import { abortError } from '../../../internal/abort-error.ts';
import { describeValue } from '../../../internal/describe-value.ts';
import { isRecord, ModelError } from '../core/index.ts';
import { Attempt, networkReason, Transient } from './attempt.ts';
import {
  backoff,
  errorFromResponse,
  type RetryOptions,
  retriesNote,
  retryAfterMs,
  retryOptionsOf,
  shouldRetry,
  sleep,
} from './http.ts';
import { DEFAULT_MAX_EVENT_BYTES, parseServerSentEvents, responseChunks } from './sse.ts';
import { type TimeoutOptions, timeoutsOf } from './timeouts.ts';

/** The transport settings every HTTP provider accepts beside its own. */
export interface TransportOptions extends RetryOptions {
  /** How long a request may wait for its server (decision 105). */
  timeouts?: TimeoutOptions;
  /**
   * The most bytes one line, or one event, of a stream may hold (default 32 MiB); past it
   * the stream fails with a `ModelError` (`code: 'event_too_large'`).
   */
  maxEventBytes?: number;
  /**
   * The most bytes of a `generate()` answer (default 64 MiB); past it the request fails
   * with a `ModelError` (`code: 'body_too_large'`).
   */
  maxBodyBytes?: number;
}

/** Every key of {@link TransportOptions}, for the providers' option checks. */
export const TRANSPORT_OPTIONS: Readonly<Record<keyof TransportOptions, true>> = {
  maxRetries: true,
  initialRetryDelayMs: true,
  maxRetryDelayMs: true,
  timeouts: true,
  maxEventBytes: true,
  maxBodyBytes: true,
};

/** What a provider's wire format tells the transport. */
export interface WireFormat {
  /** `openai`, `anthropic`, … — named in every error. */
  provider: string;
  /** The response header holding the provider's request id. */
  requestIdHeader: string;
  /** A `data:` value that ends the stream (OpenAI's `[DONE]`). */
  endMarker?: string;
  /** What the provider calls one streamed JSON object in errors (default `event`). */
  eventNoun?: string;
}

/** One request: where it goes, what it carries, and the caller's signal. */
export interface ProviderRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
}

/** A streamed answer: its request id and its JSON events (keep-alive `ping`s left out). */
export interface EventStream {
  requestId?: string;
  events: AsyncGenerator<Record<string, unknown>>;
  /**
   * The answer grew: the idle wait starts over. Only this restarts it — an event that adds
   * nothing to the answer (an empty delta, `response.in_progress`) does not (decision 178).
   */
  progress(): void;
}

/** Sends a provider's requests; built once per model by {@link transport}. */
export interface Transport {
  /** `generate()`: POSTs and returns the parsed JSON answer. */
  json(request: ProviderRequest): Promise<unknown>;
  /** `stream()`: POSTs and returns the event stream once its first event has arrived. */
  events(request: ProviderRequest): Promise<EventStream>;
}

/** The default of `maxBodyBytes`: 64 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
/** How much of a failed response's body is read for its error message. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * The transport of one model: its options are checked here, when the model is created,
 * so a bad setting fails at once with an error naming it.
 */
export function transport(wire: WireFormat, options: TransportOptions): Transport {
  const retry = retryOptionsOf(options);
  const settings: Settings = {
    wire,
    maxRetries: retry.maxRetries ?? 2,
    initialDelay: retry.initialRetryDelayMs ?? 500,
    maxDelay: retry.maxRetryDelayMs ?? 60_000,
    timeouts: timeoutsOf(wire.provider, options.timeouts),
    maxEventBytes: checkByteLimit(
      `${wire.provider}(options).maxEventBytes`,
      options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES,
    ),
    maxBodyBytes: checkByteLimit(
      `${wire.provider}(options).maxBodyBytes`,
      options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    ),
  };
  return {
    json: (request) =>
      withRetries(settings, request, async (attempt) => {
        const response = await send(settings, request, attempt, 'responseMs');
        const requestId = response.headers.get(wire.requestIdHeader) ?? undefined;
        const text = await attempt.read(readText(response, settings), {
          what: 'answer',
          requestId,
        });
        attempt.end();
        return parseAnswer(settings.wire, response, text);
      }),
    events: (request) =>
      withRetries(settings, request, async (attempt) => {
        const response = await send(settings, request, attempt, 'firstByteMs');
        const requestId = response.headers.get(wire.requestIdHeader) ?? undefined;
        const idle: IdleWait = { waitedMs: 0 };
        const events = readEvents(settings, response, attempt, requestId, idle);
        // Nothing has reached the caller until the first event: a stall before it is retried.
        const first = await events.next();
        attempt.noRetry = true;
        const progress = () => {
          idle.waitedMs = 0;
        };
        return { requestId, events: replay(first, events), progress };
      }),
  };
}

interface Settings {
  wire: WireFormat;
  maxRetries: number;
  initialDelay: number;
  maxDelay: number;
  timeouts: Required<TimeoutOptions>;
  maxEventBytes: number;
  maxBodyBytes: number;
}

/**
 * Runs `run` until it succeeds, retrying {@link Transient} failures with backoff (the
 * server's `retry-after` wins, capped at `maxRetryDelayMs`). An abort, at any point,
 * rejects with an `AbortError`.
 */
async function withRetries<T>(
  settings: Settings,
  request: ProviderRequest,
  run: (attempt: Attempt) => Promise<T>,
): Promise<T> {
  const { signal } = request;
  for (let retries = 0; ; retries++) {
    if (signal?.aborted) throw abortError(signal);
    const attempt = new Attempt(settings.wire.provider, settings.timeouts, request, retries);
    let failure: unknown;
    try {
      return await run(attempt);
    } catch (error) {
      failure = attempt.failure(error);
    }
    try {
      if (!(failure instanceof Transient)) throw failure;
      // The attempt's timer still runs while a failed response's body is read.
      if (retries >= settings.maxRetries) {
        attempt.noRetry = true;
        throw await attempt.read(Promise.resolve(failure.final(retries)));
      }
      await failure.discard?.();
    } finally {
      attempt.end();
    }
    const delay = failure.hintedMs ?? backoff(retries, settings.initialDelay, settings.maxDelay);
    await sleep(Math.min(delay, settings.maxDelay), signal);
  }
}

/** POSTs the body, the `wait` timer running; a failed response becomes an error or a {@link Transient}. */
async function send(
  settings: Settings,
  request: ProviderRequest,
  attempt: Attempt,
  wait: keyof TimeoutOptions,
): Promise<Response> {
  const { provider, requestIdHeader } = settings.wire;
  attempt.arm(wait, settings.timeouts[wait]);
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: JSON.stringify(request.body),
      signal: attempt.signal,
    });
  } catch (error) {
    const failure = attempt.failure(error);
    if (failure !== error) throw failure;
    const what = cutBeforeHeaders(error)
      ? `the connection to ${request.url} was cut before the answer's headers`
      : `could not reach ${request.url}`;
    throw new Transient(
      (retries) =>
        new ModelError(`${provider}: ${what} (${networkReason(error)})${retriesNote(retries)}`, {
          provider,
          retryable: true,
          cause: error,
        }),
    );
  }
  if (response.ok) {
    if (wait === 'firstByteMs') attempt.disarm();
    return response;
  }
  const retryable = shouldRetry(response);
  const error = async (retries: number) => {
    const text = await readText(response, settings, {
      limit: MAX_ERROR_BODY_BYTES,
      cut: true,
    }).catch((cut: unknown) => {
      // The status says what failed; a connection cut in its body loses only the details.
      if (attempt.signal.aborted) throw cut;
      return '';
    });
    return errorFromResponse(response, text, { provider, requestIdHeader }, retryable, retries);
  };
  if (!retryable) {
    attempt.noRetry = true;
    throw await attempt.read(error(attempt.retries));
  }
  throw new Transient(error, retryAfterMs(response.headers), async () => {
    await response.body?.cancel().catch(() => undefined);
  });
}

/**
 * Whether `fetch` failed because the server closed or reset the connection it had
 * accepted (undici's `other side closed`), rather than because it could not be reached.
 */
function cutBeforeHeaders(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

/** A byte limit option: a positive integer. */
function checkByteLimit(name: string, value: number): number {
  if (!(Number.isSafeInteger(value) && value > 0)) {
    throw new RangeError(
      `${name}: expected a positive integer number of bytes, received ${describeValue(value)}`,
    );
  }
  return value;
}

/** The answer's JSON; anything else is a {@link ModelError}. */
function parseAnswer(wire: WireFormat, response: Response, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ModelError(`${wire.provider}: the response was not JSON: ${text.slice(0, 200)}`, {
      provider: wire.provider,
      status: response.status,
      requestId: response.headers.get(wire.requestIdHeader) ?? undefined,
      body: text.slice(0, MAX_ERROR_BODY_BYTES),
    });
  }
}

/**
 * The body as text, at most `limit` bytes: past it, cut there (`cut`) or a
 * {@link ModelError} that stops reading at once.
 */
async function readText(
  response: Response,
  settings: Settings,
  { limit = settings.maxBodyBytes, cut = false } = {},
): Promise<string> {
  const provider = settings.wire.provider;
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of responseChunks(response)) {
    const room = limit - bytes;
    if (chunk.length > room) {
      if (cut) {
        chunks.push(chunk.subarray(0, room));
        break;
      }
      throw new ModelError(
        `${provider}: the response is longer than maxBodyBytes (${limit} bytes); reading stopped. Raise the limit with ${provider}({ maxBodyBytes }) if the server's answers are really this large`,
        { provider, status: response.status, code: 'body_too_large' },
      );
    }
    chunks.push(chunk);
    bytes += chunk.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** How long a stream has waited for its server since its answer last grew. */
interface IdleWait {
  waitedMs: number;
}

/**
 * The stream's JSON events, keep-alive `ping`s left out (comments never reach here). The
 * idle timer runs only while waiting for the server, on what is left of `idleMs` since
 * the answer last grew ({@link EventStream.progress}). A connection cut is a
 * {@link ModelError} (see {@link Attempt.failure}).
 */
async function* readEvents(
  settings: Settings,
  response: Response,
  attempt: Attempt,
  requestId: string | undefined,
  idle: IdleWait,
): AsyncGenerator<Record<string, unknown>> {
  const { wire, maxEventBytes } = settings;
  const idleMs = settings.timeouts.idleMs;
  const sse = parseServerSentEvents(responseChunks(response), {
    provider: wire.provider,
    maxEventBytes,
  });
  try {
    for (;;) {
      attempt.arm('idleMs', idleMs - idle.waitedMs);
      const waitStarted = Date.now();
      const step = await attempt.read(sse.next(), { what: 'stream', requestId });
      attempt.disarm();
      idle.waitedMs += Date.now() - waitStarted;
      if (step.done) return;
      const { event, data } = step.value;
      if (data === wire.endMarker) return;
      const record = parseEvent(wire, data);
      if (event === 'ping' || record.type === 'ping') continue;
      yield record;
    }
  } finally {
    attempt.end();
    await sse.return(undefined);
  }
}

function parseEvent(wire: WireFormat, data: string): Record<string, unknown> {
  try {
    const event: unknown = JSON.parse(data);
    if (isRecord(event)) return event;
  } catch {
    // Reported below.
  }
  throw new ModelError(
    `${wire.provider}: a stream ${wire.eventNoun ?? 'event'} was not a JSON object: ${data.slice(0, 200)}`,
    { provider: wire.provider },
  );
}

/** The events again, the first one (already read) included. */
async function* replay<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    if (first.done) return;
    yield first.value;
    yield* rest;
  } finally {
    await rest.return(undefined);
  }
}
