/** Defaults that would break their own schema (issue 9.18, docs/decisions/056): all or nothing. */
import { describe, expect, it } from 'vitest';
import { compile } from '../../../src/validate/index.ts';

describe('defaults checked against their schema', () => {
  it('are not applied when one inserted through allOf breaks the root additionalProperties: false', () => {
    const validator = compile({
      type: 'object',
      properties: { a: { type: 'string' }, c: { type: 'number', default: 2 } },
      additionalProperties: false,
      allOf: [{ properties: { b: { type: 'number', default: 1 } } }],
    });
    const input = { a: 'x' };
    const result = validator.safeParse(input);
    expect(result).toEqual({ success: true, value: { a: 'x' } });
    expect(result.success && result.value).toBe(input);
    expect(validator.safeParse({ a: 'x', b: 1 }).success).toBe(false);
  });

  it('are not applied when a defaulted key triggers an unmet dependentRequired', () => {
    const validator = compile({
      type: 'object',
      properties: { mode: { type: 'string', default: 'fast' }, level: { type: 'integer' } },
      dependentRequired: { mode: ['level'] },
    });
    expect(validator.safeParse({})).toEqual({ success: true, value: {} });
    expect(validator.safeParse({ level: 2 })).toEqual({
      success: true,
      value: { level: 2, mode: 'fast' },
    });
  });

  it('are not applied when one does not match its own subschema (the value stays valid)', () => {
    const validator = compile({ properties: { n: { type: 'integer', default: 'many' } } });
    expect(validator.safeParse({})).toEqual({ success: true, value: {} });
  });

  it('are applied when they fit', () => {
    const validator = compile({
      type: 'object',
      properties: { a: { type: 'number', default: 3 } },
      additionalProperties: false,
    });
    expect(validator.parse({})).toEqual({ a: 3 });
  });
});
