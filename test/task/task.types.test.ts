import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as valibot from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { type Task, type TaskContext, task } from '../../src/task/index.ts';
import { v } from '../../src/validate/index.ts';

describe('Task types', () => {
  it('infers the input from the schema and the output from run', () => {
    const count = task({
      name: 'count',
      inputSchema: v.object({ words: v.array(v.string()), limit: v.integer().optional() }),
      run: (input, ctx) => {
        expectTypeOf(input).toEqualTypeOf<{ words: string[]; limit?: number }>();
        expectTypeOf(ctx).toEqualTypeOf<TaskContext>();
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
    expectTypeOf<TaskContext['suspend']>().returns.toEqualTypeOf<never>();
  });
});
