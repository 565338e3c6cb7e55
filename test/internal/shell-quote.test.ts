/**
 * `shellQuote` from outside: each word goes through a real `sh -c` (and bash, when the
 * machine has it) and must come back as exactly the text, printed on one line with no
 * character a terminal acts on (decision 163).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../src/internal/shell-quote.ts';
import { TERMINAL_CONTROLS } from '../../src/internal/terminal-controls.ts';

const SHELLS = ['sh', ...['/bin/bash', '/usr/bin/zsh'].filter((shell) => existsSync(shell))];

/** The arguments `shell` passes to a command written `printf '%s\0' <words>`. */
function argvThrough(shell: string, words: string[]): string[] {
  const out = execFileSync(shell, ['-c', `printf '%s\\0' ${words.join(' ')}`]).toString('utf8');
  return out.split('\0').slice(0, -1);
}

const TEXTS = [
  'run-1',
  'call_abc',
  '$call:pay_expense',
  '$call:pay_expense#2',
  "run 'q'",
  'two words',
  '"double" and `back` quotes, $HOME, $(id)',
  'glob * ? [a] ~ {a,b} ; & | < > ( ) # !',
  '=ls',
  '~root',
  '-starts-with-a-dash',
  '',
  'back\\slash and 100%',
  'esc \x1b[2J clear',
  '\x1b]0;title\x07',
  'tab\there, cr\rthere',
  'new\nline',
  '-\x1b',
  "it's\x1b$x",
  'bidi \u202eevil\u2066',
  'c1 \x85 \x9b',
  'ünïcødé ✓ 名前',
];

describe('shellQuote', () => {
  it.each(SHELLS)('gives %s every text back exactly, as one word', (shell) => {
    expect(argvThrough(shell, TEXTS.map(shellQuote))).toEqual(TEXTS);
  });

  it('prints on one line, with no character a terminal acts on', () => {
    for (const text of TEXTS) expect(shellQuote(text)).not.toMatch(TERMINAL_CONTROLS);
  });

  it('leaves plain ids as they are and single-quotes the rest', () => {
    expect(shellQuote('run-1')).toBe('run-1');
    expect(shellQuote('01JD9Z:a.b@c+d/e=f,g%h')).toBe('01JD9Z:a.b@c+d/e=f,g%h');
    expect(shellQuote('$call:pay_expense')).toBe("'$call:pay_expense'");
    expect(shellQuote("run 'q'")).toBe(`'run '\\''q'\\'''`);
    expect(shellQuote('a\x1bb')).toBe(`"$(printf 'a\\033b')"`);
  });

  it('keeps line feeds that end the text exact, but raw (a command substitution drops them)', () => {
    for (const text of ['end\n', 'esc\x1b\n\n', '\n']) {
      expect(argvThrough('sh', [shellQuote(text)])).toEqual([text]);
      expect(
        shellQuote(text).endsWith(`${'\n'.repeat(text.length - text.trimEnd().length)}'`),
      ).toBe(true);
    }
  });
});
