/** The issues a model sees: each names what was expected and what was received, at a precise path. */
import { describe, expect, it } from 'vitest';
import { formatIssues, type Issue, safeParse, v } from '../../../src/validate/index.ts';

function issuesOf(schema: object | boolean, data: unknown, options = {}): Issue[] {
  const result = safeParse(schema as object, data, options);
  if (result.success) throw new Error('expected the value to be invalid');
  return result.issues;
}

const lines = (schema: object, data: unknown, options = {}) =>
  formatIssues(issuesOf(schema, data, options)).split('\n');

describe('messages', () => {
  it('say what type was expected and what was received', () => {
    expect(lines({ type: 'number' }, 'not-a-number')).toEqual([
      '<root>: expected number, received string "not-a-number"',
    ]);
    expect(lines({ type: 'integer' }, 1.5)).toEqual([
      '<root>: expected integer, received number 1.5',
    ]);
    expect(lines({ type: ['string', 'null'] }, [])).toEqual([
      '<root>: expected string or null, received array',
    ]);
  });

  it('list the allowed values of enum and const', () => {
    expect(lines({ enum: ['asc', 'desc'] }, 'up')).toEqual([
      '<root>: expected one of "asc", "desc", received string "up"',
    ]);
    expect(lines({ const: 3 }, 4)).toEqual(['<root>: expected 3, received number 4']);
  });

  it('name a missing required property at its own path', () => {
    expect(issuesOf({ type: 'object', required: ['id'] }, {})).toEqual([
      { path: 'id', message: 'missing required property "id"', keyword: 'required' },
    ]);
  });

  it('name an unexpected property and list the allowed keys', () => {
    const schema = { type: 'object', properties: { a: {}, b: {} }, additionalProperties: false };
    expect(lines(schema, { a: 1, c: 2 })).toEqual([
      'c: unexpected property "c"; allowed: "a", "b"',
    ]);
  });

  it('state bounds with the received value', () => {
    expect(lines({ type: 'string', minLength: 3 }, 'ab')).toEqual([
      '<root>: expected at least 3 characters, received 2 characters',
    ]);
    expect(lines({ type: 'number', minimum: 1, maximum: 7 }, 9)).toEqual([
      '<root>: expected number <= 7, received 9',
    ]);
    expect(lines({ type: 'array', maxItems: 1 }, [1, 2])).toEqual([
      '<root>: expected at most 1 item, received 2',
    ]);
    expect(lines({ type: 'string', pattern: '^[a-z]+$' }, 'ABC')).toEqual([
      '<root>: expected string matching /^[a-z]+$/, received "ABC"',
    ]);
  });

  it('collect every issue, not only the first, with paths into arrays and odd keys', () => {
    const schema = {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
        'content-type': { type: 'string' },
      },
    };
    expect(lines(schema, { items: [{ name: 'a' }, {}, { name: 2 }], 'content-type': 1 })).toEqual([
      'items[1].name: missing required property "name"',
      'items[2].name: expected string, received number 2',
      '["content-type"]: expected string, received number 1',
    ]);
  });

  it('shorten long received values', () => {
    const [line] = lines({ const: 'x' }, 'y'.repeat(500));
    expect(line.length).toBeLessThan(120);
    expect(line).toContain('…');
  });

  it('report the closest anyOf/oneOf branch, or one type issue when no branch has the type', () => {
    const union = {
      anyOf: [
        {
          type: 'object',
          properties: { kind: { const: 'circle' }, radius: { type: 'number' } },
          required: ['kind'],
        },
        {
          type: 'object',
          properties: { kind: { const: 'square' }, side: { type: 'number' } },
          required: ['kind'],
        },
      ],
    };
    expect(lines(union, { kind: 'square', side: 'big' })).toEqual([
      'side: expected number, received string "big"',
    ]);
    expect(lines(union, 'square')).toEqual(['<root>: expected object, received string "square"']);
    expect(lines({ oneOf: [{ type: 'string' }, { type: 'number' }] }, true)).toEqual([
      '<root>: expected string or number, received boolean true',
    ]);
  });

  it('say how many oneOf branches matched when more than one did', () => {
    expect(lines({ oneOf: [{ type: 'number' }, { minimum: 0 }] }, 5)).toEqual([
      '<root>: expected exactly one schema of "oneOf" to match, but 2 matched (branches 0, 1)',
    ]);
  });

  it('dispatch a discriminated oneOf by its tag and name a missing or unknown tag once', () => {
    const shape = v.discriminatedUnion('kind', [
      v.object({ kind: v.literal('circle'), radius: v.number() }),
      v.object({ kind: v.literal('square'), side: v.number() }),
    ]);
    expect(lines(shape, { kind: 'square', side: 'x' })).toEqual([
      'side: expected number, received string "x"',
    ]);
    expect(lines(shape, { kind: 'triangle' })).toEqual([
      'kind: expected one of "circle", "square", received string "triangle"',
    ]);
    expect(lines(shape, { radius: 1 })).toEqual([
      'kind: missing required property "kind"; expected one of "circle", "square"',
    ]);
  });

  it('dispatch through $ref branches of a raw schema with a discriminator', () => {
    const schema = {
      $defs: {
        cat: {
          type: 'object',
          properties: { pet: { enum: ['cat'] }, lives: { type: 'integer' } },
          required: ['pet'],
        },
        dog: { type: 'object', properties: { pet: { const: 'dog' } }, required: ['pet'] },
      },
      oneOf: [{ $ref: '#/$defs/cat' }, { $ref: '#/$defs/dog' }],
      discriminator: { propertyName: 'pet' },
    };
    expect(lines(schema, { pet: 'cat', lives: 'nine' })).toEqual([
      'lives: expected integer, received string "nine"',
    ]);
    expect(lines(schema, { pet: 'cow' })).toEqual([
      'pet: expected one of "cat", "dog", received string "cow"',
    ]);
  });

  it('name the format that was expected, when formats are asserted', () => {
    expect(lines({ type: 'string', format: 'date' }, '2024-02-30', { formats: true })).toEqual([
      '<root>: expected date format, received "2024-02-30"',
    ]);
  });

  it('explain dependentRequired, propertyNames, uniqueItems, contains and not', () => {
    expect(lines({ dependentRequired: { card: ['cvc'] } }, { card: '1' })).toEqual([
      'cvc: missing property "cvc", required when "card" is present',
    ]);
    expect(lines({ propertyNames: { pattern: '^[a-z]+$' } }, { Bad: 1 })).toEqual([
      'Bad: invalid property name "Bad": expected string matching /^[a-z]+$/, received "Bad"',
    ]);
    expect(lines({ uniqueItems: true }, [1, 2, 1])).toEqual([
      '<root>: expected unique items, items 0 and 2 are equal',
    ]);
    expect(lines({ contains: { type: 'string' } }, [1])).toEqual([
      '<root>: expected at least 1 item matching "contains", found 0',
    ]);
    expect(lines({ not: { type: 'null' } }, null)).toEqual([
      '<root>: expected the value not to match the "not" schema',
    ]);
  });
});
