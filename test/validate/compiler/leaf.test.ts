import { describe, expect, it } from 'vitest';
import {
  describeLeaf,
  isTypeOnlyNode,
  type Leaf,
  leafPasses,
  typeOnlyLeaf,
} from '../../../src/validate/compiler/keywords/leaf.ts';
import type { JsonType } from '../../../src/validate/compiler/keywords/type.ts';
import { compile } from '../../../src/validate/index.ts';

const valid = (schema: object, data: unknown, options = {}) =>
  compile(schema, options).safeParse(data).success;

describe('leaf tests', () => {
  it('describe only leaf schemas: bounds, patterns and string enums', () => {
    const regex = /a/;
    const kinds = (schema: Record<string, unknown>, types?: JsonType[], formats = false) =>
      describeLeaf(schema, types, formats, typeof schema.pattern === 'string' ? regex : undefined)
        ?.kind;
    expect(kinds({ type: 'string', minLength: 1 }, ['string'])).toBeDefined();
    expect(kinds({ type: 'integer', maximum: 3, description: 'd' }, ['integer'])).toBeDefined();
    expect(kinds({ enum: ['a', 'b'] })).toBeDefined();
    expect(kinds({ type: 'string', pattern: 'a' }, ['string'])).toBeDefined();
    expect(kinds({ type: 'string', minLength: 1, pattern: 'a' }, ['string'])).toBeUndefined();
    expect(
      kinds({ type: 'string', minLength: 1, format: 'email' }, ['string'], true),
    ).toBeUndefined();
    expect(kinds({ type: 'string', format: 'email' }, ['string'], true)).toBeUndefined();
    expect(kinds({ enum: ['a', 1] })).toBeUndefined();
    expect(kinds({ type: 'object', required: ['a'] }, ['object'])).toBeUndefined();
  });

  it('tell type-only schemas apart', () => {
    expect(isTypeOnlyNode({ type: 'string', description: 'd', default: 'x' }, false)).toBe(true);
    expect(isTypeOnlyNode({ type: 'string', format: 'email' }, false)).toBe(true);
    expect(isTypeOnlyNode({ type: 'string', format: 'email' }, true)).toBe(false);
    expect(isTypeOnlyNode({ type: 'string', minLength: 1 }, false)).toBe(false);
    expect(isTypeOnlyNode({ $ref: '#' }, false)).toBe(false);
  });

  it('test what they describe', () => {
    const leaf = (schema: Record<string, unknown>, types?: JsonType[]) =>
      describeLeaf(schema, types, false, /^[A-Z]{2}$/u) as Leaf;
    const nullable = typeOnlyLeaf(['integer', 'null']);
    expect([1, null, 1.5, '1', Number.NaN].map((value) => leafPasses(nullable, value))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    const country = leaf({ type: 'string', pattern: '^[A-Z]{2}$' }, ['string']);
    expect(['PT', 'pt', 12].map((value) => leafPasses(country, value))).toEqual([
      true,
      false,
      false,
    ]);
    expect(leafPasses(typeOnlyLeaf(undefined), Symbol('any'))).toBe(true);
  });

  it('give the same verdicts as the full checks at the boundaries', () => {
    expect(valid({ type: 'string', minLength: 2 }, '💩')).toBe(false);
    expect(valid({ type: 'string', minLength: 2 }, 'ab')).toBe(true);
    expect(valid({ type: 'string', maxLength: 1 }, '💩')).toBe(true);
    expect(valid({ type: 'string', maxLength: 1 }, 'ab')).toBe(false);
    expect(valid({ type: 'integer', minimum: 1, exclusiveMaximum: 3 }, 3)).toBe(false);
    expect(valid({ type: 'integer', minimum: 1, exclusiveMaximum: 3 }, 2)).toBe(true);
    expect(valid({ type: 'integer', minimum: 1 }, 1.5)).toBe(false);
    expect(valid({ type: 'number', maximum: 1 }, Number.NaN)).toBe(false);
    expect(valid({ enum: ['a', 'b'] }, 'c')).toBe(false);
    expect(valid({ type: 'string', enum: ['a', 'b'] }, 'b')).toBe(true);
  });

  it('fall back to the full checks for issues', () => {
    const result = compile({ type: 'string', minLength: 3 }).safeParse('ab');
    expect(result.success ? [] : result.issues.map((issue) => issue.keyword)).toEqual([
      'minLength',
    ]);
  });
});

describe('the string-enum quick path (issue 9.16)', () => {
  it('keeps a type array that excludes strings', () => {
    expect(valid({ type: ['number', 'null'], enum: ['a'] }, 'a')).toBe(false);
    expect(valid({ type: ['number', 'null'], enum: ['a'] }, null)).toBe(false);
    expect(valid({ type: ['string', 'null'], enum: ['a'] }, 'a')).toBe(true);
    expect(valid({ type: 'number', enum: ['a'] }, 'a')).toBe(false);
  });

  it('keeps the verdict of an if that holds such a schema', () => {
    const schema = {
      if: { type: ['number', 'null'], enum: ['a'] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's then keyword
      then: { const: 'never' },
    };
    expect(valid(schema, 'a')).toBe(true);
  });
});
