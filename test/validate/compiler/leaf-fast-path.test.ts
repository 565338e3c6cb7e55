import { describe, expect, it } from 'vitest';
import { quickAccept } from '../../../src/validate/compiler/keywords/leaf-fast-path.ts';
import { compile } from '../../../src/validate/index.ts';

const valid = (schema: object, data: unknown, options = {}) =>
  compile(schema, options).safeParse(data).success;

describe('quick accept paths', () => {
  it('apply only to leaf schemas of bounds and string enums', () => {
    const full = () => false;
    expect(quickAccept({ type: 'string', minLength: 1 }, ['string'], false, full)).toBeDefined();
    expect(
      quickAccept({ type: 'integer', maximum: 3, description: 'd' }, ['integer'], false, full),
    ).toBeDefined();
    expect(quickAccept({ enum: ['a', 'b'] }, undefined, false, full)).toBeDefined();
    expect(quickAccept({ type: 'string' }, ['string'], false, full)).toBeUndefined();
    expect(quickAccept({ type: 'string', pattern: 'a' }, ['string'], false, full)).toBeUndefined();
    expect(
      quickAccept({ type: 'string', minLength: 1, format: 'email' }, ['string'], true, full),
    ).toBeUndefined();
    expect(quickAccept({ enum: ['a', 1] }, undefined, false, full)).toBeUndefined();
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
