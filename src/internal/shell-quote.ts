/**
 * Text written into a command line a person copies into a shell (decision 163): one
 * word that every POSIX shell (dash included) reads back as exactly the text, with no
 * character a terminal acts on, so the line prints as it is pasted.
 */
import { TERMINAL_CONTROLS } from './terminal-controls.ts';

/**
 * Characters no POSIX shell, bash or zsh gives a meaning to in an unquoted word; `=` not
 * first (zsh expands `=name` to a command's path).
 */
const PLAIN_WORD = /^[\w.,:@%+/-][\w.,:@%+=/-]*$/;
/** Line feeds that end the text: a command substitution would drop them. */
const TRAILING_LINE_FEEDS = /\n+$/;

/** `text` in POSIX single quotes: all of it literal, a `'` written as `'\''`. */
const singleQuoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** A `printf` format that prints `text`: terminal controls as octal escapes of their UTF-8 bytes. */
function printfFormat(text: string): string {
  let format = '';
  for (const char of text) {
    if (char === '\\') format += '\\\\';
    else if (char === '-' && format === '')
      format += '\\055'; // a format is no option
    else if (char === '%') format += '%%';
    else if (TERMINAL_CONTROLS.test(char)) {
      for (const byte of Buffer.from(char, 'utf8'))
        format += `\\${byte.toString(8).padStart(3, '0')}`;
    } else format += char;
  }
  return format;
}

/**
 * `text` as one POSIX shell word: as it is when every character is plain
 * (`run-1`, `call_abc`), else in single quotes (`'$call:pay_expense'`,
 * `'run '\''q'\'''`); text with terminal controls becomes `"$(printf '…')"` with the
 * controls as octal escapes, which prints on one line without acting on the terminal.
 * Line feeds that end such text stay raw inside single quotes (a command substitution
 * would drop them): the word is still exact, but a terminal that shows them escaped
 * shows a line that names another id, and pasted it fails instead of deciding another
 * call.
 *
 * @example
 * ```ts
 * import { shellQuote } from './shell-quote.ts';
 *
 * shellQuote('run-1'); // → 'run-1'
 * shellQuote('$call:pay_expense'); // → "'$call:pay_expense'"
 * shellQuote('a\x1bb'); // → `"$(printf 'a\\033b')"`
 * ```
 */
export function shellQuote(text: string): string {
  if (PLAIN_WORD.test(text)) return text;
  if (!TERMINAL_CONTROLS.test(text)) return singleQuoted(text);
  const lineFeeds = TRAILING_LINE_FEEDS.exec(text)?.[0] ?? '';
  const body = text.slice(0, text.length - lineFeeds.length);
  const printed = body === '' ? '' : `"$(printf ${singleQuoted(printfFormat(body))})"`;
  return lineFeeds === '' ? printed : `${printed}${singleQuoted(lineFeeds)}`;
}
