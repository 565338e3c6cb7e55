/**
 * Output writers: the buffering writers `run()` and `invoke()` use when the caller gives none.
 */
import type { OutputMode, TextWriter, Writer } from './types.ts';

/** A text writer that keeps what it is given; `text()` returns it joined. */
export interface BufferedTextWriter extends TextWriter {
  text(): string;
}

/** A text writer that buffers in memory. */
export function bufferedTextWriter(): BufferedTextWriter {
  let written = '';
  return {
    mode: 'text',
    writeText(text) {
      written += String(text);
    },
    text: () => written,
  };
}

/** A writer for `mode` that discards what it is given. */
export function discardingWriter(mode: OutputMode): Writer {
  return mode === 'text' ? { mode, writeText() {} } : { mode, writeJson() {} };
}
