/** How many responses a chat handler streams at once, with their limit. */
import { UIRequestError } from './ui-request-error.ts';

/** The default of `chatHandler`'s `maxStreams`. */
export const DEFAULT_MAX_STREAMS = 1000;

/** Counts open streams; refuses a new one past the limit. */
export interface StreamCounter {
  /** 503 `TOO_MANY_STREAMS` when the limit is reached. */
  checkRoom(): void;
  /** `chunks`, counted as open from the first read until they end, fail or are closed. */
  counted<T>(chunks: AsyncIterable<T>): AsyncIterable<T>;
  /** Streams open now. */
  readonly open: number;
}

/** A counter of at most `max` open streams (a positive integer). */
export function streamCounter(max: number): StreamCounter {
  if (!Number.isSafeInteger(max) || max < 1) {
    throw new RangeError(
      `chatHandler: maxStreams: expected a positive integer, received ${String(max)}`,
    );
  }
  let open = 0;
  return {
    get open() {
      return open;
    },
    checkRoom() {
      if (open < max) return;
      throw new UIRequestError(
        'TOO_MANY_STREAMS',
        `This server streams ${max} answers already (maxStreams); try again shortly.`,
        { 'retry-after': '1' },
      );
    },
    async *counted(chunks) {
      open++;
      try {
        yield* chunks;
      } finally {
        open--;
      }
    },
  };
}
