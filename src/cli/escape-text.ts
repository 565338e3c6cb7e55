/**
 * Makes stored or model-written text safe to print on a terminal: control characters
 * become visible escapes, so text cannot move the cursor, clear the screen, retitle the
 * window or reorder what the operator reads.
 */
import { TERMINAL_CONTROLS } from '../internal/terminal-controls.ts';

/** C0 controls, DEL, C1 controls, and the bidi overrides and isolates, every one. */
const UNSAFE = new RegExp(TERMINAL_CONTROLS.source, 'g');

/** Characters JSON leaves raw that a terminal acts on: DEL, C1 and the bidi controls. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const hex = (char: string, width: number) => char.charCodeAt(0).toString(16).padStart(width, '0');

/**
 * `text` with every control character written as an escape: `\x1b` for C0, DEL and C1,
 * `\u202e` for the bidi controls. `multiline` keeps line feeds and tabs (for output
 * meant to span lines); otherwise they are escaped too (`\n`, `\t`), so one value stays
 * on one line.
 *
 * @example
 * ```ts
 * import { escapeText } from './escape-text.ts';
 *
 * escapeText('\x1b[2Jdone'); // → '\\x1b[2Jdone' (printed as \x1b[2Jdone)
 * escapeText('a\nb', { multiline: true }); // → 'a\nb'
 * ```
 */
export function escapeText(text: string, options: { multiline?: boolean } = {}): string {
  return text.replace(UNSAFE, (char) => {
    if (options.multiline && (char === '\n' || char === '\t')) return char;
    if (char === '\n') return '\\n';
    if (char === '\t') return '\\t';
    if (char === '\r') return '\\r';
    return char >= '\u2000' ? `\\u${hex(char, 4)}` : `\\x${hex(char, 2)}`;
  });
}

/**
 * `JSON.stringify(value, null, indent)` with DEL, C1 and the bidi controls written as `\u…`
 * escapes (JSON escapes C0 itself): the same JSON value, safe on a terminal.
 *
 * @example
 * ```ts
 * import { safeJson } from './escape-text.ts';
 *
 * safeJson({ note: '\u202eevil' }); // → '{"note":"\\u202eevil"}'
 * ```
 */
export function safeJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(
    UNSAFE_IN_JSON,
    (char) => `\\u${hex(char, 4)}`,
  );
}
