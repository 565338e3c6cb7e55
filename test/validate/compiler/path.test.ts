import { describe, expect, it } from 'vitest';
import { formatPath } from '../../../src/validate/compiler/path.ts';

describe('formatPath', () => {
  it('writes the root as empty, keys dotted and indexes in brackets', () => {
    expect(formatPath([])).toBe('');
    expect(formatPath(['items', 1, 'name'])).toBe('items[1].name');
    expect(formatPath([0, 'a'])).toBe('[0].a');
  });

  it('quotes keys that are not identifiers as JSON strings', () => {
    expect(formatPath(['headers', 'content-type'])).toBe('headers["content-type"]');
    expect(formatPath(['a.b', ''])).toBe('["a.b"][""]');
    expect(formatPath(['say "hi"'])).toBe('["say \\"hi\\""]');
  });

  it('dots exactly the keys that match /^[A-Za-z_$][A-Za-z0-9_$]*$/', () => {
    const keys = [
      'a',
      'Z9',
      '_x',
      '$y',
      'a_b$1',
      '9a',
      'a-b',
      'é',
      'a b',
      '[',
      '@',
      '`',
      '{',
      '/',
      ':',
    ];
    for (const key of keys) {
      const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key);
      expect(formatPath(['p', key])).toBe(identifier ? `p.${key}` : `p[${JSON.stringify(key)}]`);
    }
  });
});
