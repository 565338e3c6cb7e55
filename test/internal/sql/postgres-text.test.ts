import { describe, expect, it } from 'vitest';
import { decodeRows, decodeText, encodeText } from '../../../src/internal/sql/postgres-text.ts';

describe('the text encoding of the PostgreSQL driver', () => {
  it.each([
    ['plain text', 'plain text'],
    ['a\0b', 'a\uffff0b'],
    ['\0\0', '\uffff0\uffff0'],
    ['x\uffffy', 'x\uffff1y'],
    ['\uffff0 is not NUL', '\uffff10 is not NUL'],
  ])('stores %j as %j and reads it back', (text, stored) => {
    expect(encodeText(text)).toBe(stored);
    expect(stored).not.toContain('\0');
    expect(decodeText(stored)).toBe(text);
  });

  it('leaves other values alone', () => {
    expect([1, null, undefined, true].map(encodeText)).toEqual([1, null, undefined, true]);
  });

  it('decodes every string column of the rows', () => {
    expect(decodeRows([{ id: 1, text: 'a\uffff0', note: null }])).toEqual([
      { id: 1, text: 'a\0', note: null },
    ]);
  });
});
