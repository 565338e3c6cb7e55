/**
 * The one rule for text a store keeps as a key and a listing prints: no control
 * characters (`\p{Cc}`: C0, DEL, C1) and no lone surrogates — a NUL or a lone surrogate
 * cannot be stored in PostgreSQL, SQLite stores a lone surrogate changed (so the key no
 * longer finds its row), and a newline or an escape code garbles what prints it.
 */

const PRINTABLE = /^[^\p{Cc}\p{Cs}]+$/u;

/** Whether `text` is a non-empty string of printable, well-formed text. */
export const isPrintableText = (text: unknown): text is string =>
  typeof text === 'string' && PRINTABLE.test(text);
