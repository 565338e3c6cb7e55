import { expect, it } from 'vitest';
import { isPrintableText } from '../../src/internal/printable-text.ts';

it('takes well-formed text without control characters, emoji and non-Latin scripts included', () => {
  for (const text of ['chat-1', 'Größe', '注文 17', 'a 👍 b', 'tab-less text']) {
    expect(isPrintableText(text)).toBe(true);
  }
});

it('refuses control characters (C0, DEL, C1), lone surrogates, the empty string and non-strings', () => {
  for (const text of [
    'a\u0000',
    'a\n',
    '\u001b[2J',
    'a\u007f',
    'a\u009b',
    'a\ud800',
    '\udc00b',
    '',
  ]) {
    expect(isPrintableText(text)).toBe(false);
  }
  for (const value of [undefined, null, 17, ['a'], { a: 1 }])
    expect(isPrintableText(value)).toBe(false);
});
