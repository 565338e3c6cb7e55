/**
 * Hostile input against schema patterns, formats and `uniqueItems` (issue 9.2, 9.3): a
 * backtracking `pattern` once held an MCP server for 89 s on a 44-byte argument, and
 * `uniqueItems` for 19.8 s on 589 KB. Each call here must simply return: vitest's default
 * timeout is the guard, no timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/validate/formats/index.ts';
import { compile, SchemaError } from '../../src/validate/index.ts';

/** Catastrophic for a backtracking engine, with a 44-character and a 50,000-character input that does not match. */
const CATASTROPHIC: Array<{ pattern: string; hostile: (length: number) => string }> = [
  { pattern: '^(a+)+$', hostile: (length) => `${'a'.repeat(length - 1)}!` },
  { pattern: '(a|aa)+$', hostile: (length) => `${'a'.repeat(length - 1)}!` },
  { pattern: '(.*a){20}', hostile: (length) => `${'a'.repeat(19)}${'b'.repeat(length - 19)}` },
  { pattern: '^(\\w+\\s?)*$', hostile: (length) => `${'ab '.repeat(length / 3)}!`.slice(-length) },
];

const LENGTHS = [44, 50_000];

describe('catastrophic patterns return at once', () => {
  for (const { pattern, hostile } of CATASTROPHIC) {
    for (const length of LENGTHS) {
      const input = hostile(length);

      it(`pattern ${pattern} on ${length} characters`, () => {
        const result = compile({ type: 'string', pattern }).safeParse(input);
        expect(result.success).toBe(false);
        expect(result.success ? '' : result.issues[0].keyword).toBe('pattern');
      });

      it(`patternProperties ${pattern} on a ${length}-character key`, () => {
        const validator = compile({
          type: 'object',
          patternProperties: { [pattern]: { type: 'number' } },
          additionalProperties: false,
        });
        const result = validator.safeParse({ [input]: 1 });
        expect(result.success ? '' : result.issues[0].keyword).toBe('additionalProperties');
      });

      it(`propertyNames ${pattern} on a ${length}-character key`, () => {
        const validator = compile({ type: 'object', propertyNames: { pattern } });
        const result = validator.safeParse({ [input]: 1 });
        expect(result.success ? '' : result.issues[0].keyword).toBe('propertyNames');
      });
    }
  }

  it('still matches what those patterns should match', () => {
    expect(compile({ pattern: '^(a+)+$' }).safeParse('a'.repeat(50_000)).success).toBe(true);
    expect(compile({ pattern: '(.*a){20}' }).safeParse('a'.repeat(50_000)).success).toBe(true);
  });
});

describe('syntax only backtracking can match is refused at compile(), never at call time', () => {
  it.each([
    ['(a+)\\1', 'backreference'],
    ['(?<x>a)\\k<x>', 'backreference'],
    ['^(?=(a+))\\1$', 'lookahead'],
    ['(?<!a)b', 'lookbehind'],
  ])('%s', (pattern, what) => {
    for (const schema of [
      { pattern },
      { patternProperties: { [pattern]: {} } },
      { propertyNames: { pattern } },
      { items: { properties: { a: { pattern } } } },
    ]) {
      expect(() => compile(schema)).toThrow(SchemaError);
      expect(() => compile(schema)).toThrow(what);
    }
  });
});

describe('formats stay linear on long hostile strings', () => {
  const long = 50_000;
  const hostile = [
    'a'.repeat(long),
    `${'a'.repeat(long)}@`,
    `${'a.'.repeat(long / 2)}@x`,
    `"${'\\"'.repeat(long / 2)}@x`,
    `${'1'.repeat(long)}x`,
    `P${'1'.repeat(long)}X`,
    `PT${'1'.repeat(long)}`,
    `2024-01-01T00:00:00.${'1'.repeat(long)}`,
    `a:${':1'.repeat(long / 2)}`,
    `http://${'%a'.repeat(long / 2)}`,
    `//[${'v1'.repeat(long / 2)}`,
    `/${'~'.repeat(long)}`,
    `0${'/~0'.repeat(long / 3)}~`,
    `${'-a'.repeat(long / 2)}.`,
    `${'xn--a'.repeat(long / 5)}`,
    `${'1:'.repeat(long / 2)}`,
    `${'('.repeat(long)}`,
    `${'[a-'.repeat(long / 3)}`,
  ];
  // Every format fino asserts, from its own table: a format added later is attacked too.
  const formats = Object.keys(FORMATS);
  it.each(formats)('%s', (format) => {
    const validator = compile({ type: 'string', format }, { formats: true });
    for (const input of hostile) expect(typeof validator.safeParse(input).success).toBe('boolean');
  });
});

describe('uniqueItems is linear on objects and arrays', () => {
  const unique = compile({ type: 'array', uniqueItems: true });

  it('20,000 distinct objects', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({
      id: i,
      name: `item ${i}`,
      tags: ['a', 'b', { n: i }],
    }));
    expect(unique.safeParse(items).success).toBe(true);
  });

  it('20,000 distinct arrays that share long prefixes', () => {
    const prefix = Array.from({ length: 50 }, (_, i) => i);
    const items = Array.from({ length: 20_000 }, (_, i) => [...prefix, i]);
    expect(unique.safeParse(items).success).toBe(true);
    items.push([...prefix, 19_999]);
    const result = unique.safeParse(items);
    expect(result.success ? '' : result.issues[0].message).toBe(
      'expected unique items, items 19999 and 20000 are equal',
    );
  });

  it('an item nested 200,000 levels deep is an issue, not a crash', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const result = unique.safeParse([deep, { a: 1 }]);
    expect(result.success ? '' : result.issues[0].keyword).toBe('depth');
  });

  it('20,000 objects with the same keys in different orders', () => {
    const items = Array.from({ length: 20_000 }, (_, i) =>
      i % 2 === 0 ? { a: i, b: -i, c: [i] } : { c: [i], b: -i, a: i },
    );
    expect(unique.safeParse(items).success).toBe(true);
  });
});

describe('patterns run natively stay linear on their worst inputs', () => {
  it.each([
    ['^[a-z]+[0-9]*$', `${'a'.repeat(50_000)}!`],
    ['^[^\\s@]+@[^\\s@]+$', `${'a'.repeat(50_000)}@${'b'.repeat(50_000)} `],
    ['^.*$', `${'a'.repeat(50_000)}\n`],
    ['^[A-Z]{3}-[0-9]+$', `ABC-${'1'.repeat(50_000)}x`],
  ])('%s', (pattern, input) => {
    expect(compile({ pattern }).safeParse(input).success).toBe(false);
  });
});
