import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { Tool, type ToolResult, type ToolRunContext, tool } from '../../../src/ai/tool/index.ts';
import type { CallContext, InvokeContext } from '../../../src/task/index.ts';
import { v } from '../../../src/validate/index.ts';

describe('Tool types', () => {
  it('gives a tool executor the call context fino:task names CallContext, under the spec name ToolRunContext', () => {
    expectTypeOf<ToolRunContext>().toEqualTypeOf<CallContext>();
    expectTypeOf<Partial<ToolRunContext>>().toEqualTypeOf<InvokeContext>();
  });

  it('infers execute arguments from a v builder', () => {
    const add = tool({
      name: 'add',
      parameters: v.object({ a: v.number(), b: v.number() }),
      execute: (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{ a: number; b: number }>();
        expectTypeOf(ctx).toEqualTypeOf<ToolRunContext>();
        return String(args.a + args.b);
      },
    });
    expectTypeOf(add).toEqualTypeOf<Tool<{ a: number; b: number }, string>>();
    expectTypeOf(add.run).returns.resolves.toEqualTypeOf<string>();
  });

  it('infers execute arguments from a Standard Schema (Zod)', () => {
    const t = new Tool({
      name: 'z',
      parameters: z.object({ q: z.string(), n: z.number().optional() }),
      execute: async ({ q, n }) => {
        expectTypeOf(q).toEqualTypeOf<string>();
        expectTypeOf(n).toEqualTypeOf<number | undefined>();
        return { content: q };
      },
    });
    expectTypeOf(t.invoke).returns.resolves.toHaveProperty('content');
  });

  it('accepts annotated executors and raw JSON Schema', () => {
    tool({
      name: 'annotated',
      parameters: v.object({ city: v.string() }),
      execute: async ({ city }: { city: string }) => `Sunny in ${city}`,
    });
    const raw = tool({
      name: 'raw',
      parameters: { type: 'object', properties: { id: { type: 'string' } } },
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<unknown>();
        return JSON.stringify(args);
      },
    });
    expectTypeOf(raw).toEqualTypeOf<Tool<unknown, string>>();
  });

  it('rejects executors that return something other than a ToolResult', () => {
    tool({
      name: 'bad',
      // @ts-expect-error a number is not a ToolResult
      execute: () => 42,
    });
    expectTypeOf<'text'>().toMatchTypeOf<ToolResult>();
  });

  it('rejects an annotation that contradicts the schema', () => {
    tool({
      name: 'bad',
      // @ts-expect-error the schema's city is a string, the executor's a number
      parameters: v.object({ city: v.string() }),
      execute: ({ city }: { city: number }) => String(city),
    });
  });
});
