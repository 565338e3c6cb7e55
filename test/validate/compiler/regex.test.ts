import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePattern, PatternError } from '../../../src/validate/compiler/regex.ts';
import { compile, SchemaError } from '../../../src/validate/index.ts';

/** The native engine's answer: the meaning fino's translation must keep. */
function native(source: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch {
    return new RegExp(source);
  }
}

/** Characters where ECMAScript and RE2 disagree: Unicode spaces, line terminators, astral. */
const TRICKY = [
  'a',
  'Z',
  '0',
  '_',
  '-',
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u2003',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\u3000',
  'é',
  'Σ',
  'α',
  '中',
  '😀',
  '𝒜',
  '/',
  '.',
  '{',
  '\\',
  '\b',
  '\0',
];

const PATTERNS = [
  '^[A-Z]{3}-[0-9]+$',
  '^.$',
  '^..$',
  '.',
  '^\\s+$',
  '^\\S+$',
  '^[\\s\\d]+$',
  '^[^\\s]+$',
  '^[\\S]$',
  '\\d',
  '^\\w+$',
  '^\\W$',
  '\\bZ\\b',
  '\\Ba',
  '^\\p{L}+$',
  '^\\p{Letter}$',
  '^\\P{L}$',
  '^[\\p{Lu}\\d]+$',
  '^\\p{Script=Greek}$',
  '^\\p{sc=Grek}$',
  '^\\p{scx=Han}$',
  '^\\p{ASCII}+$',
  '^\\p{Emoji}$',
  '^\\p{White_Space}$',
  '^\\p{gc=Zs}$',
  '^\\p{C}$',
  '^[^\\P{Ll}]$',
  '^a$',
  'a$',
  '^\\u{1F600}$',
  '^\\uD83D\\uDE00$',
  '^[😀-😂]$',
  '^\\x41|\\u00e9$',
  '^\\cJ$',
  '^[\\b]$',
  '^\\0$',
  '^\\/|\\.|\\{$',
  '^(?:a|Z)+$',
  '^(?<name>a)(b)?$',
  '^a{2,3}$',
  '^a+?$',
  '^[^]$',
  '[]',
  '^[-a]$',
  '^[a-]$',
  '^[a-z-0]$',
  '^[\\w-]+$',
  '^[\\-.]$',
  '^\\t\\n\\r\\v\\f$',
];

describe('compilePattern keeps ECMAScript semantics', () => {
  it.each(PATTERNS)('%s matches what the native engine matches', (source) => {
    const pattern = compilePattern(source);
    const expected = native(source);
    const inputs = [...TRICKY, '', 'ABC-12', 'aa', 'aaa', 'Z a', 'abc\n', 'αβγ', 'AZ09'];
    for (const input of inputs) {
      expect(pattern.test(input), `${JSON.stringify(input)}`).toBe(expected.test(input));
    }
  });

  it('agrees with the native engine on random strings of tricky characters', () => {
    const compiled = PATTERNS.map((source) => [compilePattern(source), native(source)] as const);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TRICKY), { maxLength: 6 }), (chars) => {
        const input = chars.join('');
        for (const [pattern, expected] of compiled)
          expect(pattern.test(input)).toBe(expected.test(input));
      }),
      { numRuns: 300 },
    );
  });

  it('accepts patterns only legacy (non-Unicode) mode accepts, with their legacy meaning', () => {
    for (const [source, yes, no] of [
      ['\\_', '_', 'x'],
      ['^a{$', 'a{', 'a'],
      ['^a}]$', 'a}]', 'a'],
      ['^\\p$', 'p', '\\p'],
      ['^\\c$', '\\c', 'c'],
      ['^[\\c_]$', '\u001f', 'c'],
      ['^[\\d-z]+$', '1-z', 'y'],
      ['^\\k$', 'k', '\\k'],
      ['^\\x4$', 'x4', '\u0004'],
    ]) {
      expect(() => new RegExp(source, 'u')).toThrow();
      expect(compilePattern(source).test(yes), `${source} on ${yes}`).toBe(true);
      expect(compilePattern(source).test(no), `${source} on ${no}`).toBe(false);
    }
  });
});

describe('compilePattern refuses what needs backtracking', () => {
  it.each([
    ['(a)\\1', 'the backreference `\\1`'],
    ['(?<x>a)\\k<x>', 'the backreference `\\k<…>`'],
    ['a(?=b)', 'lookahead'],
    ['a(?!b)', 'lookahead'],
    ['(?<=a)b', 'lookbehind'],
    ['(?<!a)b', 'lookbehind'],
    ['\\1(a)', 'the backreference `\\1`'],
    ['a{1001}', 'repetition counts above 1000'],
  ])('%s', (source, reason) => {
    let error: unknown;
    try {
      compilePattern(source);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PatternError);
    expect((error as PatternError).kind).toBe('unsupported');
    expect((error as PatternError).message).toContain(reason);
  });

  it('refuses a legacy octal escape, which reads like a backreference', () => {
    expect(() => compilePattern('\\1_')).toThrow(/backreference or octal escape `\\1`/);
  });

  it('tells an invalid pattern apart', () => {
    expect(() => compilePattern('(')).toThrow(PatternError);
    try {
      compilePattern('[b-a]');
    } catch (error) {
      expect((error as PatternError).kind).toBe('invalid');
    }
  });
});

describe('compile() refuses unsupported patterns with the schema path', () => {
  const failure = (schema: object) => {
    try {
      compile(schema);
    } catch (error) {
      expect(error).toBeInstanceOf(SchemaError);
      return error as SchemaError;
    }
    throw new Error('compile() accepted the schema');
  };

  it('names the path, the pattern and why', () => {
    const error = failure({ properties: { a: { pattern: '(a)\\1' } } });
    expect(error.schemaPath).toBe('#/properties/a/pattern');
    expect(error.message).toBe(
      '#/properties/a/pattern: pattern "(a)\\\\1" uses the backreference `\\1`, which only a backtracking engine can match; fino matches patterns with a linear-time engine so that validation time stays linear in the input (see "Patterns" in docs/validate.md)',
    );
  });

  it('in patternProperties, naming the key', () => {
    expect(failure({ patternProperties: { '^a(?=b)': {} } }).schemaPath).toBe(
      '#/patternProperties/^a(?=b)',
    );
  });

  it('in propertyNames', () => {
    expect(failure({ propertyNames: { pattern: '(?<!x)y' } }).schemaPath).toBe(
      '#/propertyNames/pattern',
    );
  });

  it('keeps "expected a regular expression" for a pattern that is not one', () => {
    expect(failure({ pattern: '[' }).message).toMatch(
      /^#\/pattern: expected a regular expression, received "\[" \(Invalid regular expression/,
    );
  });
});
