/**
 * Output writers: the ones `run()` and `invoke()` use when the caller gives none.
 */
import type { JsonWriter, OutputMode, TextWriter, Writer } from './types.ts';

/** A text writer that keeps what it is given in `text`. */
export class TextBuffer implements TextWriter {
  readonly mode = 'text' as const;
  text = '';

  writeText(text: string): void {
    this.text += String(text);
  }
}

const discardText: TextWriter = Object.freeze({ mode: 'text', writeText() {} });
const discardJson: JsonWriter = Object.freeze({ mode: 'json', writeJson() {} });

/** A writer for `mode` that discards what it is given. */
export const discardingWriter = (mode: OutputMode): Writer =>
  mode === 'text' ? discardText : discardJson;
