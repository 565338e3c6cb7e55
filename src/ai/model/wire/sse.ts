import { ModelError } from '../core/index.ts';

/** One server-sent event: its `event:` name (when given) and its joined `data:` lines. */
export interface ServerSentEvent {
  event?: string;
  data: string;
}

/** The default of `maxEventBytes`: 32 MiB (docs/decisions/106). */
export const DEFAULT_MAX_EVENT_BYTES = 32 * 1024 * 1024;

/** Options of {@link parseServerSentEvents}. */
export interface SseOptions {
  /** Named in the error past the limit (`openai`, `anthropic`, …); default `model`. */
  provider?: string;
  /**
   * The most bytes one line may hold, and the most the `data:` lines of one event may hold
   * together (default {@link DEFAULT_MAX_EVENT_BYTES}). Past it the stream fails with a
   * {@link ModelError} at once, having held no more than the limit.
   */
  maxEventBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = '\uFEFF';

/**
 * Parses a `text/event-stream` body into events, per the WHATWG rules: lines end with
 * LF, CR or CRLF; a blank line dispatches; `data:` lines join with LF; comments and
 * unknown fields are ignored; a leading BOM is skipped. Chunk boundaries may fall
 * anywhere, even inside a character.
 *
 * Each byte is scanned once: lines are split on bytes (LF and CR never occur inside a
 * UTF-8 sequence), the unfinished line is kept as a list of chunks, and a line is decoded
 * once, when it ends. A line or an event longer than `maxEventBytes` ends the stream with
 * a {@link ModelError} saying the limit and how to raise it.
 */
export async function* parseServerSentEvents(
  body: AsyncIterable<Uint8Array>,
  options: SseOptions = {},
): AsyncGenerator<ServerSentEvent> {
  const provider = options.provider ?? 'model';
  const limit = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The pieces of the line not yet ended, and their total length in bytes. */
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  /** A CR ended the previous chunk: an LF opening this one belongs to it. */
  let afterCR = false;
  let first = true;
  let event: string | undefined;
  let data: string[] = [];
  let dataBytes = 0;

  const tooLong = (what: string): ModelError =>
    new ModelError(
      `${provider}: ${what} of the event stream is longer than maxEventBytes (${limit} bytes); the stream was closed. Raise the limit with ${provider}({ maxEventBytes }) if the server's events are really this large`,
      { provider, code: 'event_too_large' },
    );

  const endLine = (bytes: number, text: string): ServerSentEvent | undefined => {
    if (first) {
      first = false;
      if (text.startsWith(BOM)) text = text.slice(1);
    }
    if (text === '') {
      const dispatched = data.length > 0 ? { event, data: data.join('\n') } : undefined;
      event = undefined;
      data = [];
      dataBytes = 0;
      return dispatched;
    }
    if (text.startsWith(':')) return undefined;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      dataBytes += bytes + 1;
      if (dataBytes > limit + 1) throw tooLong('one event');
      data.push(value);
    } else if (field === 'event') event = value;
    return undefined;
  };

  /** Ends the pending line with `tail` (a part of the current chunk). */
  const lineOf = (tail: Uint8Array): ServerSentEvent | undefined => {
    const bytes = pendingBytes + tail.length;
    let whole = tail;
    if (pending.length > 0) {
      whole = new Uint8Array(bytes);
      let offset = 0;
      for (const piece of pending) {
        whole.set(piece, offset);
        offset += piece.length;
      }
      whole.set(tail, offset);
    }
    // Let the pieces go before decoding: a long line is held twice at most, not three times.
    pending = [];
    pendingBytes = 0;
    return endLine(bytes, whole.length === 0 ? '' : decoder.decode(whole));
  };

  for await (const chunk of body) {
    let start = 0;
    if (afterCR && chunk[0] === LF) start = 1;
    afterCR = false;
    let nextLF = chunk.indexOf(LF, start);
    let nextCR = chunk.indexOf(CR, start);
    while (nextLF !== -1 || nextCR !== -1) {
      const end = nextCR === -1 || (nextLF !== -1 && nextLF < nextCR) ? nextLF : nextCR;
      if (pendingBytes + (end - start) > limit) throw tooLong('one line');
      const dispatched = lineOf(chunk.subarray(start, end));
      start = end + 1;
      if (chunk[end] === CR) {
        if (start === chunk.length) afterCR = true;
        else if (chunk[start] === LF) start++;
      }
      if (nextLF !== -1 && nextLF < start) nextLF = chunk.indexOf(LF, start);
      if (nextCR !== -1 && nextCR < start) nextCR = chunk.indexOf(CR, start);
      if (dispatched) yield dispatched;
    }
    if (start < chunk.length) {
      pendingBytes += chunk.length - start;
      if (pendingBytes > limit) throw tooLong('one line');
      pending.push(chunk.subarray(start));
    }
  }
  if (pendingBytes > 0) {
    const dispatched = lineOf(new Uint8Array(0));
    if (dispatched) yield dispatched;
  }
  const last = endLine(0, '');
  if (last) yield last;
}

/** A response body's chunks; leaving early cancels the body (closing the connection). */
export async function* responseChunks(response: Response): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
