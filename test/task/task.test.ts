import { describe, expect, it, vi } from 'vitest';
import {
  isTask,
  SuspendSignal,
  Task,
  type TaskRunContext,
  task,
  UsageError,
} from '../../src/task/index.ts';
import { v } from '../../src/validate/index.ts';

const greet = task({
  name: 'greet',
  description: 'Greet someone.',
  inputSchema: v.object({ name: v.string() }),
  run: ({ name }) => `Hello, ${name}!`,
});

describe('Task construction', () => {
  it('exposes its options as read-only properties with defaults', () => {
    const t = task({ name: 'plain', run: () => '' });
    expect(t).toBeInstanceOf(Task);
    expect(t.description).toBe('');
    expect(t.parameters).toEqual({ type: 'object', properties: {} });
    expect(t.outputMode).toBe('text');
    expect(t.requiresApproval).toBe(false);
    expect(t.sideEffects).toBeUndefined();
    expect(t.risk).toBeUndefined();
    expect(t.timeoutMs).toBeUndefined();
    expect(t.throwOnError).toBe(false);
    expect(t.effects).toEqual([]);
    expect(t.children).toEqual([]);
  });

  it('normalizes the input schema to JSON Schema', () => {
    expect(greet.parameters).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
  });

  it('keeps an explicit sideEffects: false distinct from undeclared', () => {
    expect(task({ name: 'r', sideEffects: false, run: () => '' }).sideEffects).toBe(false);
  });

  it('rejects bad options with a message naming what is wrong', () => {
    expect(() => task({ name: '', run: () => '' })).toThrow(
      /name: expected a non-empty string, received string ""/,
    );
    expect(() => task({ name: 'x' } as never)).toThrow(
      /"x": run: expected a function, received undefined/,
    );
    expect(() => new Task(null as never)).toThrow(
      /Task options: expected an object with at least `name` and `run`, received null/,
    );
    expect(() => task({ name: 'x', outputMode: 'xml' as never, run: () => '' })).toThrow(
      `Task "x": outputMode: expected 'text', 'json' or 'both', received string "xml"`,
    );
    expect(() => task({ name: 'p', children: [{ name: 'x' } as never], run: () => '' })).toThrow(
      'Task "p": children[0]: expected a task (from task() or tool()), received object',
    );
  });

  it.each([
    ['above 2^31 - 1 ms (a timer would fire at once)', 2 ** 31],
    ['zero', 0],
    ['negative', -1],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a string', '5000'],
  ])('refuses a timeoutMs that is %s with a RangeError naming the option', (_label, value) => {
    expect(() => task({ name: 'x', timeoutMs: value as number, run: () => '' })).toThrow(
      RangeError,
    );
    expect(() => task({ name: 'x', timeoutMs: value as number, run: () => '' })).toThrow(
      /^Task "x": timeoutMs: expected a number of milliseconds > 0 and ≤ 2147483647/,
    );
  });

  it('accepts a timeoutMs of exactly 2^31 - 1 ms', () => {
    expect(task({ name: 'x', timeoutMs: 2 ** 31 - 1, run: () => '' }).timeoutMs).toBe(2 ** 31 - 1);
  });

  it('accepts any non-empty risk label, known or not', () => {
    for (const risk of ['low', 'medium', 'high', 'destructive', 'network', 'billing']) {
      expect(task({ name: 'x', risk, run: () => '' }).risk).toBe(risk);
    }
  });

  it.each([
    ['an empty string', '', 'string ""'],
    ['a number', 3, 'number 3'],
    ['null', null, 'null'],
  ])('refuses a risk that is %s', (_label, risk, received) => {
    expect(() => task({ name: 'x', risk: risk as string, run: () => '' })).toThrow(
      `Task "x": risk: expected a non-empty string such as 'low', 'medium', 'high' or 'destructive', received ${received}`,
    );
  });

  it('is recognised by its cross-copy brand', () => {
    expect(isTask(greet)).toBe(true);
    expect(isTask({ name: 'greet', invoke() {} })).toBe(false);
    expect(isTask(null)).toBe(false);
    expect(isTask({ [Symbol.for('fino.task')]: true })).toBe(true);
  });
});

describe('Task.invoke', () => {
  it('returns the executor result as content', async () => {
    expect(await greet.invoke({ name: 'Ada' })).toEqual({ content: 'Hello, Ada!' });
  });

  it('awaits executors that return a promise or any thenable, and folds their rejections', async () => {
    const later = task({ name: 'later', run: async () => 'done later' });
    expect(await later.invoke({})).toEqual({ content: 'done later' });
    const fromThenable: unknown = {
      // biome-ignore lint/suspicious/noThenProperty: the test needs a thenable that is not a Promise
      then: (resolve: (value: string) => void) => resolve('from a thenable'),
    };
    const thenable = task({ name: 'thenable', run: () => fromThenable });
    expect(await thenable.invoke({})).toEqual({ content: 'from a thenable' });
    const rejecting = task({
      name: 'rejecting',
      run: () => Promise.reject(new Error('late failure')),
    });
    expect(await rejecting.invoke({})).toEqual({ content: 'late failure', isError: true });
  });

  it('turns invalid arguments into an isError result naming the path', async () => {
    const result = await greet.invoke({ name: 42 });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Invalid arguments for "greet":\nname: /);
  });

  it('turns any thrown value into an isError result', async () => {
    const thrower = (value: unknown) =>
      task({
        name: 't',
        run: () => {
          throw value;
        },
      });
    expect(await thrower(new Error('disk full')).invoke({})).toEqual({
      content: 'disk full',
      isError: true,
    });
    expect(await thrower('plain string').invoke({})).toEqual({
      content: 'plain string',
      isError: true,
    });
    expect(await thrower({ code: 7 }).invoke({})).toEqual({ content: '{"code":7}', isError: true });
    expect(await thrower(undefined).invoke({})).toEqual({
      content: 'undefined was thrown',
      isError: true,
    });
  });

  it('rethrows validation and executor errors with throwOnError', async () => {
    const strict = task({
      name: 's',
      inputSchema: v.object({ n: v.number() }),
      throwOnError: true,
      run: () => {
        throw new Error('boom');
      },
    });
    await expect(strict.invoke({ n: 'x' })).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(strict.invoke({ n: 1 })).rejects.toThrow('boom');
  });

  it('always propagates errors named AbortError or SuspendSignal', async () => {
    for (const name of ['AbortError', 'SuspendSignal']) {
      const error = Object.assign(new Error('stop'), { name });
      const t = task({
        name: 't',
        run: () => {
          throw error;
        },
      });
      await expect(t.invoke({})).rejects.toBe(error);
    }
  });

  it("propagates the caller's cancellation", async () => {
    const controller = new AbortController();
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const t = task({
      name: 't',
      run: (_input, ctx) =>
        new Promise((_, reject) => {
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
          started();
        }),
    });
    const pending = t.invoke({}, { signal: controller.signal });
    await running;
    controller.abort(new Error('user cancelled'));
    await expect(pending).rejects.toThrow('user cancelled');
    await expect(t.invoke({}, { signal: controller.signal })).rejects.toThrow('user cancelled');
  });

  it('normalizes outputs: string, content object, JSON, undefined', async () => {
    const returning = (value: unknown) => task({ name: 'r', run: () => value });
    const parts = { content: [{ type: 'text', text: 'a' }], isError: true };
    expect(await returning('s').invoke({})).toEqual({ content: 's' });
    expect(await returning(parts).invoke({})).toEqual(parts);
    expect(await returning({ a: 1 }).invoke({})).toEqual({ content: '{"a":1}' });
    expect(await returning(3).invoke({})).toEqual({ content: '3' });
    expect(await returning(undefined).invoke({})).toEqual({ content: '' });
  });

  it("reports an unserializable output as an invalid result, the tool's fault", async () => {
    const result = await task({ name: 'r', run: () => ({ n: 1n }) }).invoke({});
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(
      /^Tool "r" returned an invalid result \(it cannot be serialized as JSON: .*BigInt.*\)\. This is a fault in the tool, not in the arguments/,
    );
  });

  it('copies a content result: only content, isError and the known fields of each part', async () => {
    const returned = {
      content: [{ type: 'image', mediaType: 'image/png', data: 'AA==', extra: 1n }],
      extra: { cyclic: {} },
    };
    const result = await task({ name: 'r', run: () => returned }).invoke({});
    expect(result).toStrictEqual({
      content: [{ type: 'image', mediaType: 'image/png', data: 'AA==' }],
    });
  });

  it('puts text written through the writer before the returned content', async () => {
    const t = task({
      name: 'w',
      run: (_input, ctx) => {
        if (ctx.writer.mode === 'text') ctx.writer.writeText('progress; ');
        return 'done';
      },
    });
    expect(await t.invoke({})).toEqual({ content: 'progress; done' });
  });

  it('gives the executor a complete context with fallbacks outside an agent', async () => {
    const seen = vi.fn();
    await task({ name: 'c', run: (_input, ctx) => seen(ctx) }).invoke({});
    const ctx = seen.mock.calls[0][0];
    expect(ctx).toMatchObject({ toolCallId: 'task', step: 0, runId: 'task', messages: [] });
    expect(ctx.signal).toBeInstanceOf(AbortSignal);
    expect(ctx.signal.aborted).toBe(false);
    expect(ctx.cwd).toBe(process.cwd());
    expect(ctx.env).toBe(process.env);
  });

  it('gives each call its own messages and writer, which the executor may replace', async () => {
    const contexts: TaskRunContext[] = [];
    const kept: string[] = [];
    const t = task({
      name: 'own',
      run: (_input, ctx) => {
        contexts.push(ctx);
        ctx.messages.push({ role: 'user', content: 'mine' });
        if (ctx.writer.mode === 'text') ctx.writer.writeText('before; ');
        ctx.messages = [];
        ctx.writer = { mode: 'text', writeText: (text) => kept.push(text) };
        if (ctx.writer.mode === 'text') ctx.writer.writeText('elsewhere');
        return 'done';
      },
    });
    expect(await t.invoke({})).toEqual({ content: 'before; done' });
    expect(await t.invoke({})).toEqual({ content: 'before; done' });
    expect(kept).toEqual(['elsewhere', 'elsewhere']);
    expect(contexts[0].messages).toEqual([]);
    expect(contexts[0].messages).not.toBe(contexts[1].messages);
    expect(contexts[0].writer).not.toBe(contexts[1].writer);
  });

  it('reports a failure by a rejected promise, never a synchronous throw', async () => {
    const strict = task({
      name: 'strict',
      inputSchema: v.object({ n: v.number() }),
      throwOnError: true,
      run: () => '',
    });
    const calls = [
      () => greet.invoke({ name: 'Ada' }, { signal: AbortSignal.abort() }),
      () => greet.invoke({ name: 'Ada' }, null as never),
      () => strict.invoke({ n: 'x' }),
      () =>
        task({
          name: 'boom',
          throwOnError: true,
          run: () => {
            throw new Error('boom');
          },
        }).invoke({}),
    ];
    for (const call of calls) {
      let promise: Promise<unknown> | undefined;
      expect(() => {
        promise = call();
      }).not.toThrow();
      expect(promise).toBeInstanceOf(Promise);
      await expect(promise).rejects.toBeDefined();
    }
    const settled = greet.invoke({ name: 'Ada' });
    expect(settled).toBeInstanceOf(Promise);
    expect(await settled).toEqual({ content: 'Hello, Ada!' });
  });

  it('lets a plain task suspend: ctx.suspend() throws a SuspendSignal that propagates', async () => {
    const pause = task({ name: 'pause', run: (_input, ctx) => ctx.suspend('wait', { n: 1 }) });
    const error = await pause.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SuspendSignal);
    expect(error).toMatchObject({ message: 'wait', payload: { n: 1 } });
  });

  it("passes the caller's call identity through", async () => {
    const seen = vi.fn();
    const messages = [{ role: 'user' as const, content: 'hi' }];
    await task({ name: 'c', run: (_input, ctx) => seen(ctx) }).invoke(
      {},
      {
        toolCallId: 'call_1',
        step: 3,
        runId: 'run_9',
        messages,
        resumeValue: 'yes',
        idempotencyKey: 'k',
      },
    );
    expect(seen.mock.calls[0][0]).toMatchObject({
      toolCallId: 'call_1',
      step: 3,
      runId: 'run_9',
      messages,
      resumeValue: 'yes',
      idempotencyKey: 'k',
    });
  });

  it('passes arguments through unvalidated when there is no schema', async () => {
    const echo = task({ name: 'e', run: (input) => input });
    expect(await echo.invoke({ any: ['thing'] })).toEqual({ content: '{"any":["thing"]}' });
  });

  it('validates with a foreign Standard Schema, even an asynchronous one', async () => {
    const asyncSchema = {
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
        validate: async (value: unknown) =>
          typeof value === 'object' && value !== null && 'ok' in value
            ? { value }
            : { issues: [{ message: 'expected ok', path: ['ok'] }] },
      },
    };
    const t = task({ name: 'a', inputSchema: asyncSchema, run: () => 'fine' });
    expect(await t.invoke({ ok: 1 })).toEqual({ content: 'fine' });
    const bad = await t.invoke({});
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/expected ok/);
  });
});

describe('Task.run', () => {
  it('returns the executor output and throws a ValidationError for bad input', async () => {
    expect(await greet.run({ name: 'Ada' })).toBe('Hello, Ada!');
    await expect(greet.run({ name: 1 } as never)).rejects.toMatchObject({
      name: 'ValidationError',
    });
  });

  it('hands the executor a writer of the requested mode, env and cwd', async () => {
    const chunks: unknown[] = [];
    const both = task({
      name: 'b',
      outputMode: 'both',
      run: (_input, ctx) => {
        if (ctx.writer.mode === 'json') ctx.writer.writeJson({ cwd: ctx.cwd, v: ctx.env.V });
        return 'ok';
      },
    });
    await both.run(undefined, {
      mode: 'json',
      writer: { mode: 'json', writeJson: (value) => chunks.push(value) },
      env: { V: '1' },
      cwd: '/tmp',
    });
    expect(chunks).toEqual([{ cwd: '/tmp', v: '1' }]);
  });

  it('refuses an unsupported mode or a mismatched writer before the executor runs', async () => {
    const executor = vi.fn(() => 'x');
    const textOnly = task({ name: 'text_only', run: executor });
    await expect(textOnly.run(undefined, { mode: 'json' })).rejects.toThrow(
      /cannot produce "json" output: it supports "text"/,
    );
    await expect(
      textOnly.run(undefined, { mode: 'text', writer: { mode: 'json', writeJson() {} } }),
    ).rejects.toThrow(/writer's mode "json" differs from the requested mode "text"/);
    expect(executor).not.toHaveBeenCalled();
    await expect(textOnly.run(undefined, { mode: 'json' })).rejects.toBeInstanceOf(UsageError);
  });
});

describe('Task.toToolDefinition, child and list', () => {
  it('describes the task and finds children by name', () => {
    const child = task({ name: 'child', run: () => '' });
    const parent = task({ name: 'parent', description: 'P', children: [child], run: () => '' });
    expect(parent.toToolDefinition()).toEqual({
      name: 'parent',
      description: 'P',
      parameters: { type: 'object', properties: {} },
    });
    expect(parent.child('child')).toBe(child);
    expect(parent.child('nope')).toBeUndefined();
    expect(parent.list()).toEqual([child]);
  });
});
