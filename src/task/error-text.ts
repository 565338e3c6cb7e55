/**
 * Size limits for the error texts `invoke()` composes, so that no input — however large
 * or hostile — makes a failed tool result larger than a few kilobytes. Decision 059.
 */

/**
 * The most characters (UTF-16 code units) of an `isError` result that `invoke()` writes
 * itself: invalid arguments, a thrown error, an invalid result, a timeout. Longer text is
 * cut and ends with a note saying how long it was. A tool's own `{ content, isError: true }`
 * is its output and is not cut.
 */
const ERROR_TEXT_MAX_CHARS = 8192;

/**
 * `text` cut to at most `max` characters, ending with `…` when cut; never splits a
 * surrogate pair.
 */
export function excerpt(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${cutAt(text, max - 1)}…`;
}

/**
 * `text` within {@link ERROR_TEXT_MAX_CHARS}: when longer, its start and a last line
 * saying it was truncated and how long it was.
 */
export function capErrorText(text: string): string {
  if (text.length <= ERROR_TEXT_MAX_CHARS) return text;
  const note = `\n… (truncated: ${text.length} characters in all)`;
  return cutAt(text, ERROR_TEXT_MAX_CHARS - note.length) + note;
}

/** The first `length` code units of `text`, one fewer when that would split a surrogate pair. */
function cutAt(text: string, length: number): string {
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}
