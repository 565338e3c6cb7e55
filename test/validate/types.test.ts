import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  compile,
  type Infer,
  type InferInput,
  type InferSchema,
  type StandardSchemaV1,
  v,
} from '../../src/validate/index.ts';

describe('static types of builders', () => {
  it('infers primitives, literals and enums', () => {
    expectTypeOf<Infer<ReturnType<typeof v.any>>>().toEqualTypeOf<unknown>();
    expectTypeOf<Infer<ReturnType<typeof v.string>>>().toEqualTypeOf<string>();
    expectTypeOf<Infer<ReturnType<typeof v.number>>>().toEqualTypeOf<number>();
    expectTypeOf<Infer<ReturnType<typeof v.integer>>>().toEqualTypeOf<number>();
    expectTypeOf<Infer<ReturnType<typeof v.boolean>>>().toEqualTypeOf<boolean>();
    expectTypeOf<Infer<ReturnType<typeof v.null>>>().toEqualTypeOf<null>();
    const circle = v.literal('circle');
    expectTypeOf<Infer<typeof circle>>().toEqualTypeOf<'circle'>();
    const three = v.literal(3);
    expectTypeOf<Infer<typeof three>>().toEqualTypeOf<3>();
    const order = v.enum(['asc', 'desc']);
    expectTypeOf<Infer<typeof order>>().toEqualTypeOf<'asc' | 'desc'>();
  });

  it('infers objects with optional and defaulted properties', () => {
    const schema = v.object({ a: v.string(), b: v.number().optional() });
    expectTypeOf<Infer<typeof schema>>().toEqualTypeOf<{ a: string; b?: number }>();

    const defaulted = v.object({ limit: v.integer().default(10), q: v.string() });
    expectTypeOf<Infer<typeof defaulted>>().toEqualTypeOf<{ limit: number; q: string }>();
    expectTypeOf<InferInput<typeof defaulted>>().toEqualTypeOf<{ limit?: number; q: string }>();

    const anyKey = v.object({ meta: v.any() });
    expectTypeOf<Infer<typeof anyKey>>().toEqualTypeOf<{ meta: unknown }>();
  });

  it('infers nullable, and keeps it through optional', () => {
    const schema = v.object({ a: v.string().nullable(), b: v.number().nullable().optional() });
    expectTypeOf<Infer<typeof schema>>().toEqualTypeOf<{ a: string | null; b?: number | null }>();
  });

  it('infers arrays, tuples and records', () => {
    const list = v.array(v.object({ id: v.string() }));
    expectTypeOf<Infer<typeof list>>().toEqualTypeOf<{ id: string }[]>();
    const pair = v.tuple([v.string(), v.number()]);
    expectTypeOf<Infer<typeof pair>>().toEqualTypeOf<[string, number]>();
    const map = v.record(v.number());
    expectTypeOf<Infer<typeof map>>().toEqualTypeOf<Record<string, number>>();
    const keyed = v.record(v.enum(['a', 'b']), v.boolean());
    expectTypeOf<Infer<typeof keyed>>().toEqualTypeOf<Partial<Record<'a' | 'b', boolean>>>();
  });

  it('infers unions, intersections and discriminated unions', () => {
    const either = v.union([v.string(), v.number()]);
    expectTypeOf<Infer<typeof either>>().toEqualTypeOf<string | number>();
    const both = v.intersection([v.object({ a: v.string() }), v.object({ b: v.number() })]);
    expectTypeOf<Infer<typeof both>>().toEqualTypeOf<{ a: string } & { b: number }>();
    const shape = v.discriminatedUnion('kind', [
      v.object({ kind: v.literal('circle'), radius: v.number() }),
      v.object({ kind: v.literal('square'), side: v.number() }),
    ]);
    expectTypeOf<Infer<typeof shape>>().toEqualTypeOf<
      { kind: 'circle'; radius: number } | { kind: 'square'; side: number }
    >();
  });

  it('infers nested objects', () => {
    const schema = v.object({
      user: v.object({ name: v.string(), tags: v.array(v.string()).optional() }),
      items: v.array(v.object({ id: v.integer(), note: v.string().nullable() })),
    });
    expectTypeOf<Infer<typeof schema>>().toEqualTypeOf<{
      user: { name: string; tags?: string[] };
      items: { id: number; note: string | null }[];
    }>();
  });

  it('keeps the type through chain methods', () => {
    const name = v.string().min(1).max(5).pattern('a').format('email').describe('x').title('t');
    expectTypeOf<Infer<typeof name>>().toEqualTypeOf<string>();
    const strict = v
      .object({ a: v.string() })
      .strict()
      .refine((value) => value.a !== '');
    expectTypeOf<Infer<typeof strict>>().toEqualTypeOf<{ a: string }>();
    v.integer().refine((n) => {
      expectTypeOf(n).toEqualTypeOf<number>();
      return true;
    });
    v.string()
      .nullable()
      .refine((s) => {
        expectTypeOf(s).toEqualTypeOf<string>();
        return true;
      });
  });

  it('rejects defaults, examples and branches of the wrong type', () => {
    // Never called: only the type-check step runs these lines.
    const wrongTypes = () => {
      // @ts-expect-error: a number default for a string
      v.string().default(1);
      // @ts-expect-error: a string example for a number
      v.number().examples('x');
      // @ts-expect-error: a discriminated union branch without the tag
      v.discriminatedUnion('kind', [v.object({ other: v.string() })]);
    };
    expectTypeOf(wrongTypes).toBeFunction();
  });
});

describe('static types across schema kinds', () => {
  it('types compile() by the schema given', () => {
    expectTypeOf(compile(v.object({ a: v.string() })).parse).returns.toEqualTypeOf<{
      a: string;
    }>();
    expectTypeOf(compile({ type: 'string' }).parse).returns.toEqualTypeOf<unknown>();
    expectTypeOf(compile(z.object({ n: z.number() })).parse).returns.toEqualTypeOf<{
      n: number;
    }>();
  });

  it('maps each kind with InferSchema', () => {
    const builder = v.object({ a: v.boolean() });
    expectTypeOf<InferSchema<typeof builder>>().toEqualTypeOf<{ a: boolean }>();
    expectTypeOf<InferSchema<{ type: 'string' }>>().toEqualTypeOf<unknown>();
    expectTypeOf<InferSchema<true>>().toEqualTypeOf<unknown>();
    const zod = z.string().transform((s) => s.length);
    expectTypeOf<InferSchema<typeof zod>>().toEqualTypeOf<number>();
  });

  it('exposes builders as Standard Schema with input and output types', () => {
    const schema = v.object({ limit: v.integer().default(10) });
    expectTypeOf<StandardSchemaV1.InferOutput<typeof schema>>().toEqualTypeOf<{ limit: number }>();
    expectTypeOf(schema).toExtend<StandardSchemaV1<{ limit?: number }, { limit: number }>>();
  });
});
