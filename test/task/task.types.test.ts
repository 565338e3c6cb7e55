import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as valibot from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type KnownRisk,
  type Risk,
  type Task,
  type TaskRunContext,
  task,
} from '../../src/task/index.ts';
import { v } from '../../src/validate/index.ts';

describe('Task types', () => {
  it('infers the input from the schema and the output from run', () => {
    const count = task({
      name: 'count',
      inputSchema: v.object({ words: v.array(v.string()), limit: v.integer().optional() }),
      run: (input, ctx) => {
        expectTypeOf(input).toEqualTypeOf<{ words: string[]; limit?: number }>();
        expectTypeOf(ctx).toEqualTypeOf<TaskRunContext>();
        return { count: input.words.length };
      },
    });
    expectTypeOf(count).toEqualTypeOf<
      Task<{ words: string[]; limit?: number }, { count: number }>
    >();
    expectTypeOf(count.run).returns.resolves.toEqualTypeOf<{ count: number }>();
  });

  it('infers from any Standard Schema (Valibot)', () => {
    task({
      name: 'v',
      inputSchema: toStandardJsonSchema(valibot.object({ id: valibot.string() })),
      run: ({ id }) => {
        expectTypeOf(id).toEqualTypeOf<string>();
        return id;
      },
    });
  });

  it('narrows the writer by mode', () => {
    task({
      name: 'w',
      run: (_input, { writer }) => {
        if (writer.mode === 'json')
          expectTypeOf(writer.writeJson).parameter(0).toEqualTypeOf<unknown>();
        else expectTypeOf(writer.writeText).parameter(0).toEqualTypeOf<string>();
      },
    });
  });

  it('has a suspend that never returns', () => {
    expectTypeOf<TaskRunContext['suspend']>().returns.toEqualTypeOf<never>();
  });

  it('takes suspend positionally or as one object, and a positional harness suspend as context', async () => {
    await task({
      name: 's',
      run: (_input, ctx) => {
        if (ctx.step === 1) ctx.suspend('why', { n: 1 });
        return ctx.suspend({ reason: 'why', payload: { n: 1 } });
      },
    }).invoke(
      {},
      {
        suspend: (reason?: string, payload?: unknown): never => {
          throw new Error(`${reason} ${String(payload)}`);
        },
      },
    );
  });

  it('accepts known and free-form risk labels, with the known ones named in the type', () => {
    expectTypeOf<KnownRisk>().toEqualTypeOf<'low' | 'medium' | 'high' | 'destructive'>();
    expectTypeOf<'network'>().toExtend<Risk>();
    task({ name: 'r', risk: 'billing', run: () => '' });
    // @ts-expect-error a risk is a string
    const typedWrong = () => task({ name: 'r', risk: 3, run: () => '' });
    expectTypeOf(typedWrong).toBeFunction();
  });
});
