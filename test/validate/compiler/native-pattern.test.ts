import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linearNative } from '../../../src/validate/compiler/native-pattern.ts';
import { compilePattern } from '../../../src/validate/compiler/regex.ts';

describe('linearNative: the hybrid rule', () => {
  it.each([
    '^[A-Z]{3}-[0-9]+$',
    '^[a-z]+$',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^[\\w-]+$',
    '^[^\\s@]+@[^\\s@]+$',
    '^a+b?c$',
    '^.*$',
    'foo',
    'a\\$',
    '',
  ])('runs %s natively', (source) => {
    expect(linearNative(source)).toBeInstanceOf(RegExp);
  });

  it.each([
    ['^(a+)+$', 'a group'],
    ['(a|aa)+$', 'alternation'],
    ['(.*a){20}', 'a group'],
    ['a+', 'a variable quantifier without ^ (every start position rescans)'],
    ['^a*a*$', 'overlapping neighbours'],
    ['^a+b?a$', 'overlap past a nullable item'],
    ['^\\S+@\\S+$', '\\S includes @'],
    ['^[a-z0-9.-]+\\.[a-z]{2,}$', 'the class includes the dot after it'],
    ['^.*a$', '. includes a'],
    ['^[a-z]*?x$', 'a lazy quantifier'],
    ['^\\p{L}+$', 'a property escape'],
    ['\\bword\\b', 'a word boundary'],
    ['^\\uD83D\\uDE00$', 'a surrogate escape'],
  ])('leaves %s to the linear engine (%s)', (source) => {
    expect(linearNative(source)).toBeUndefined();
  });

  it('keeps the meaning: native and linear-engine answers agree', () => {
    const sources = ['^[A-Z]{3}-[0-9]+$', '^[^\\s@]+@[^\\s@]+$', '^a+b?c$', '^.*$', '^[\\w-]+$'];
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('a', 'b', 'c', 'A', '-', '@', ' ', '\u00a0', '\n', '1'),
        }),
        (input) => {
          for (const source of sources)
            expect(compilePattern(source).test(input)).toBe(new RegExp(source, 'u').test(input));
        },
      ),
      { numRuns: 300 },
    );
  });
});
