import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type CompiledValidator, compile, v } from '../../src/validate/index.ts';

describe('CompiledValidator.is', () => {
  const schema = {
    type: 'object',
    properties: { id: { type: 'string' }, count: { type: 'integer', default: 1 } },
    required: ['id'],
    additionalProperties: false,
  } as const;

  it('gives the same verdict as safeParse, without issues or defaults', () => {
    const validator = compile(schema);
    for (const data of [
      { id: 'a' },
      { id: 'a', count: 2 },
      { id: 1 },
      {},
      { id: 'a', x: 1 },
      'a',
      null,
    ]) {
      expect(validator.is(data)).toBe(validator.safeParse(data).success);
    }
  });

  it('is false, not a throw, for a value whose reading throws', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys for you');
        },
        get() {
          throw new Error('no values either');
        },
      },
    );
    expect(compile(schema).is(hostile)).toBe(false);
  });

  it('rethrows what a refinement throws', () => {
    const validator = compile(
      v.string().refine(() => {
        throw new Error('refinement bug');
      }),
    );
    expect(() => validator.is('x')).toThrow('refinement bug');
  });

  it('narrows the value to the schema type', () => {
    const validator = compile(v.object({ id: v.string() }));
    const data: unknown = { id: 'a' };
    if (validator.is(data)) expectTypeOf(data).toEqualTypeOf<{ id: string }>();
    expect(validator.is(data)).toBe(true);
  });

  it('works for a foreign Standard Schema', () => {
    const validator = compile(z.object({ id: z.string() }));
    expect(validator.is({ id: 'a' })).toBe(true);
    expect(validator.is({ id: 1 })).toBe(false);
  });

  it('stays correct when a refinement validates reentrantly with the same validator', () => {
    const inner = compile(v.string());
    const outer: CompiledValidator<string> = compile(
      v.string().refine((s): boolean => s === '' || outer.is(s.slice(1))),
    );
    expect(outer.is('abc')).toBe(true);
    expect(inner.is(1)).toBe(false);
  });
});
