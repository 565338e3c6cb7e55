import { type } from 'arktype';
import * as valibot from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  compile,
  compileStandard,
  safeParse,
  ValidationError,
} from '../../../src/validate/index.ts';

const shapes = {
  zod: z.object({ a: z.string(), items: z.array(z.object({ n: z.number() })) }),
  valibot: valibot.object({
    a: valibot.string(),
    items: valibot.array(valibot.object({ n: valibot.number() })),
  }),
  arktype: type({ a: 'string', items: type({ n: 'number' }).array() }),
};

describe('compileStandard', () => {
  it.each(Object.entries(shapes))(
    'validates %s schemas with their own validate',
    (_name, schema) => {
      const validator = compile(schema);
      expect(validator.parse({ a: 'x', items: [{ n: 1 }] })).toEqual({ a: 'x', items: [{ n: 1 }] });
      const result = validator.safeParse({ a: 'x', items: [{ n: '1' }] });
      expect(result.success).toBe(false);
      if (!result.success) {
        expect(result.issues).toHaveLength(1);
        expect(result.issues[0].path).toBe('items[0].n');
        expect(result.issues[0].message).not.toBe('');
        expect(result.error).toBeInstanceOf(ValidationError);
        expect(result.error.issues).toBe(result.issues);
      }
      expect(() => validator.parse({})).toThrow(ValidationError);
    },
  );

  it("uses the vendor's issue code as the keyword, else 'standard'", () => {
    const zod = safeParse(z.string(), 1);
    expect(!zod.success && zod.issues[0].keyword).toBe('invalid_type');
    const vali = safeParse(valibot.string(), 1);
    expect(!vali.success && vali.issues[0].keyword).toBe('standard');
  });

  it('formats foreign paths in fino syntax, including non-identifier keys', () => {
    const schema = z.object({ 'content-type': z.string() });
    const result = compileStandard(schema).safeParse({ 'content-type': 1 });
    expect(!result.success && result.issues[0].path).toBe('["content-type"]');
  });

  it('exposes the JSON Schema form lazily, failing only when it is read', () => {
    const validator = compileStandard(valibot.string());
    expect(validator.safeParse('ok')).toEqual({ success: true, value: 'ok' });
    expect(() => validator.schema).toThrow('this valibot schema has no JSON Schema form');
    expect(compileStandard(z.string()).schema).toMatchObject({ type: 'string' });
  });

  it('supports asynchronous validation through safeParseAsync only', async () => {
    const schema = z.string().refine(async (s) => s.length > 1, 'too short');
    const validator = compileStandard(schema);
    expect(() => validator.safeParse('x')).toThrow(
      'this zod schema validates asynchronously; use safeParseAsync',
    );
    expect(() => validator.parse('x')).toThrow(TypeError);
    expect(await validator.safeParseAsync('xy')).toEqual({ success: true, value: 'xy' });
    const failed = await validator.safeParseAsync('x');
    expect(!failed.success && failed.issues[0].message).toBe('too short');
  });

  it('returns what the library returns as the value (transforms applied)', () => {
    expect(compileStandard(z.string().transform((s) => s.length)).parse('abc')).toBe(3);
  });
});
