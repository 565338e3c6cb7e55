/**
 * UI message chunks as a `Response` of server-sent events, as the protocol sends them:
 * `data: <json>` per chunk, `data: [DONE]` at the end, with the protocol's headers. The
 * chunks are read as they come into a bounded buffer: a client that reads slower than
 * the run writes (or never reads) ends the stream at the bound instead of holding the
 * run or growing memory (decision 247).
 */
import { failureChunks } from './run-outcome.ts';
import type { UIMessageChunk } from './types.ts';

/** The headers of a UI message stream response (the same as `ai` 7's). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
});

/** Limits of one UI message stream response. */
export interface UIStreamLimits {
  /**
   * The most bytes of events waiting for the client to read (default 1 MiB). Past it the
   * stream ends with a `STREAM_OVERFLOW` error and the source is closed (a run aborted).
   * A single larger chunk is sent when nothing else waits.
   */
  maxBufferedBytes?: number;
}

/** Options of {@link uiMessageStreamResponse}. */
export interface UIStreamResponseInit {
  /** The status (default 200). */
  status?: number;
  /** More headers; the protocol's win over these. */
  headers?: ConstructorParameters<typeof Headers>[0];
  /** Aborting it (e.g. `request.signal`) ends the stream and closes the source. */
  signal?: AbortSignal;
  limits?: UIStreamLimits;
}

const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;
const encoder = new TextEncoder();
const DONE = encoder.encode('data: [DONE]\n\n');

/**
 * A `Response` streaming `chunks` as the UI message stream protocol's server-sent events.
 * Closing the response body (the client left) or `init.signal` closes the chunks'
 * iterator (its `return()`), so a run behind it can be stopped.
 *
 * @example
 * ```ts
 * import { uiMessageStreamResponse } from 'fino:ai/ui';
 *
 * async function* chunks() {
 *   yield { type: 'start', messageId: 'm1' } as const;
 *   yield { type: 'finish' } as const;
 * }
 * const response = uiMessageStreamResponse(chunks());
 * console.log(response.headers.get('x-vercel-ai-ui-message-stream')); // v1
 * console.log(await response.text()); // data: {"type":"start","messageId":"m1"} … data: [DONE]
 * ```
 */
export function uiMessageStreamResponse(
  chunks: AsyncIterable<UIMessageChunk>,
  init: UIStreamResponseInit = {},
): Response {
  const maxBytes = init.limits?.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new RangeError(
      `uiMessageStreamResponse: limits.maxBufferedBytes: expected a positive integer, received ${String(maxBytes)}`,
    );
  }
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) headers.set(name, value);
  return new Response(sseBody(chunks, maxBytes, init.signal), {
    status: init.status ?? 200,
    headers,
  });
}

/** One chunk as an event. */
function eventBytes(chunk: UIMessageChunk): Uint8Array {
  return encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`);
}

/** The body: a pump that reads `chunks` into a bounded queue, and a pull-based stream of it. */
function sseBody(
  chunks: AsyncIterable<UIMessageChunk>,
  maxBytes: number,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  const queue: Uint8Array[] = [];
  let queued = 0;
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const push = (bytes: Uint8Array) => {
    queue.push(bytes);
    queued += bytes.byteLength;
    notify();
  };
  const end = (discard: boolean) => {
    if (ended) return;
    ended = true;
    if (discard) queue.length = 0;
    void Promise.resolve()
      .then(() => iterator.return?.())
      .catch(() => {});
    notify();
  };
  const pump = async () => {
    for (;;) {
      const next = await iterator.next();
      if (ended) return;
      if (next.done) break;
      push(eventBytes(next.value));
      if (queued > maxBytes && queue.length > 1) {
        const overflow = {
          code: 'STREAM_OVERFLOW',
          message: `the client read too slowly: more than ${maxBytes} bytes of events were waiting (limits.maxBufferedBytes)`,
        };
        for (const chunk of failureChunks(overflow)) push(eventBytes(chunk));
        push(DONE);
        end(false);
        return;
      }
    }
    push(DONE);
    ended = true;
    notify();
  };
  const onAbort = () => end(true);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  pump().catch((error: unknown) => {
    if (ended) return;
    for (const chunk of failureChunks(error)) push(eventBytes(chunk));
    push(DONE);
    end(false);
  });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (queue.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
        const next = queue.shift();
        if (next === undefined) {
          signal?.removeEventListener('abort', onAbort);
          controller.close();
          return;
        }
        queued -= next.byteLength;
        controller.enqueue(next);
      },
      cancel() {
        signal?.removeEventListener('abort', onAbort);
        end(true);
      },
    },
    { highWaterMark: 0 },
  );
}
