/**
 * The bounds of a run's streams out (`ctx.writeStream`, decision 227) and the rule for a
 * stream's name, shared by the code that writes streams and the callers that read them.
 */
import { checkPrintableName, MAX_NAME_CHARS } from './printable.ts';

/** The most chunks one stream of a run may hold. */
export const MAX_STREAM_CHUNKS = 10_000;

/** The most bytes of JSON one stream of a run may hold, all its chunks together (8 MiB). */
export const MAX_STREAM_BYTES = 8 * 1024 * 1024;

/** The most streams (distinct names) one run may write. */
export const MAX_STREAMS_PER_RUN = 100;

/** The longest stream name, in characters. */
export const MAX_STREAM_NAME_CHARS = MAX_NAME_CHARS;

/**
 * `INVALID_ARGUMENT` unless `name` is 1 to {@link MAX_STREAM_NAME_CHARS} characters of
 * well-formed text without control characters (a NUL or a lone surrogate cannot be
 * stored in PostgreSQL, and would name different streams in different databases).
 */
export function checkStreamName(name: unknown, where: string): asserts name is string {
  checkPrintableName(name, `${where}: name`);
}
