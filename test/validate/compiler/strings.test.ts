import { describe, expect, it } from 'vitest';
import { codePointLength } from '../../../src/validate/compiler/keywords/strings.ts';
import { compile } from '../../../src/validate/index.ts';

describe('string length', () => {
  it('counts code points, so an emoji is one character', () => {
    expect(codePointLength('a💩b')).toBe(3);
    expect(codePointLength('\ud83d')).toBe(1);
    expect(compile({ maxLength: 1 }).safeParse('💩').success).toBe(true);
    expect(compile({ minLength: 2 }).safeParse('💩').success).toBe(false);
  });

  it('matches patterns as Unicode regular expressions', () => {
    expect(compile({ pattern: '^.$' }).safeParse('💩').success).toBe(true);
    expect(compile({ pattern: '^\\p{L}+$' }).safeParse('Ünïcödé').success).toBe(true);
  });
});
