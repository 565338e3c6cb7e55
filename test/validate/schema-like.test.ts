import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as valibot from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isStandardSchema, normalizeSchema, v } from '../../src/validate/index.ts';

describe('normalizeSchema', () => {
  it('turns a builder into its JSON Schema', () => {
    expect(normalizeSchema(v.object({ q: v.string() }))).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    });
  });

  it('returns a raw JSON Schema object itself, and boolean schemas as objects', () => {
    const raw = { type: 'object', properties: { id: { type: 'integer' } } };
    expect(normalizeSchema(raw)).toBe(raw);
    expect(normalizeSchema(true)).toEqual({});
    expect(normalizeSchema(false)).toEqual({ not: {} });
  });

  it.each([
    [42, 'received number 42'],
    ['string', 'received string "string"'],
    [null, 'received null'],
    [[], 'received array'],
    [undefined, 'received undefined'],
  ])('rejects %j with a clear error', (value, received) => {
    expect(() => normalizeSchema(value as never)).toThrow(
      `expected a schema (a v builder, a JSON Schema object or boolean, or a Standard Schema), ${received}`,
    );
  });

  it('reads the JSON Schema form of Zod 4 schemas (input side)', () => {
    const schema = z.object({ a: z.string(), b: z.number().default(1) });
    expect(normalizeSchema(schema)).toMatchObject({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number', default: 1 } },
      required: ['a'],
    });
  });

  it('reads the JSON Schema form of ArkType types', () => {
    expect(normalizeSchema(type({ a: 'string', 'b?': 'number' }))).toMatchObject({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a'],
    });
  });

  it('reads Valibot schemas wrapped with toStandardJsonSchema, and explains how otherwise', () => {
    const schema = valibot.object({ a: valibot.string() });
    expect(normalizeSchema(toStandardJsonSchema(schema) as never)).toMatchObject({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
    expect(() => normalizeSchema(schema)).toThrow(
      'this valibot schema has no JSON Schema form; wrap it with toStandardJsonSchema(schema) from @valibot/to-json-schema',
    );
  });

  it('explains how to supply JSON Schema for an unknown Standard Schema library', () => {
    const foreign = { '~standard': { version: 1, vendor: 'acme', validate: () => ({ value: 1 }) } };
    expect(() => normalizeSchema(foreign as never)).toThrow(
      'this acme schema has no JSON Schema form; pass its JSON Schema instead, or a schema that implements Standard JSON Schema (~standard.jsonSchema)',
    );
  });
});

describe('isStandardSchema', () => {
  it('recognizes Standard Schema objects of every library, and nothing else', () => {
    expect(isStandardSchema(v.string())).toBe(true);
    expect(isStandardSchema(z.string())).toBe(true);
    expect(isStandardSchema(valibot.string())).toBe(true);
    expect(isStandardSchema(type('string'))).toBe(true);
    expect(isStandardSchema({ type: 'string' })).toBe(false);
    expect(isStandardSchema({ '~standard': { version: 2, validate() {} } })).toBe(false);
    expect(isStandardSchema({ '~standard': null })).toBe(false);
    expect(isStandardSchema(null)).toBe(false);
  });
});
