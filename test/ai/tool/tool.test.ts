import { describe, expect, it, vi } from 'vitest';
import {
  SuspendSignal,
  Tool,
  type ToolRunContext,
  tool,
  toToolDefinition,
} from '../../../src/ai/tool/index.ts';
import { isTask, Task } from '../../../src/task/index.ts';
import { v } from '../../../src/validate/index.ts';

const weather = new Tool({
  name: 'get_weather',
  description: 'Get current weather for a city.',
  parameters: v.object({ city: v.string() }),
  execute: async ({ city }) => `Sunny in ${city}`,
});

describe('Tool', () => {
  it('is a Task with parameters normalized to JSON Schema and text output', () => {
    expect(weather).toBeInstanceOf(Task);
    expect(isTask(weather)).toBe(true);
    expect(weather.outputMode).toBe('text');
    expect(weather.parameters).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
    });
  });

  it('runs directly and through invoke', async () => {
    expect(await weather.run({ city: 'Lisbon' })).toBe('Sunny in Lisbon');
    expect(await weather.invoke({ city: 'Lisbon' })).toEqual({ content: 'Sunny in Lisbon' });
  });

  it('exposes what agents and MCP need', () => {
    const remove = tool({
      name: 'remove_file',
      title: 'Remove file',
      description: 'Delete a file from the workspace.',
      parameters: v.object({ path: v.string().describe('Workspace-relative path') }),
      risk: 'destructive',
      sideEffects: true,
      requiresApproval: true,
      timeoutMs: 10_000,
      effects: ['fs:write'],
      execute: async ({ path }) => `deleted ${path}`,
    });
    expect(remove).toMatchObject({
      name: 'remove_file',
      title: 'Remove file',
      risk: 'destructive',
      sideEffects: true,
      requiresApproval: true,
      timeoutMs: 10_000,
      effects: ['fs:write'],
    });
    expect(weather.sideEffects).toBeUndefined();
    expect(weather.title).toBeUndefined();
  });

  it('accepts raw JSON Schema parameters', async () => {
    const raw = tool({
      name: 'raw',
      parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      execute: (args) => JSON.stringify(args),
    });
    expect(raw.parameters).toEqual({
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
    });
    expect(await raw.invoke({ n: 2 })).toEqual({ content: '{"n":2}' });
    expect((await raw.invoke({ n: 2.5 })).isError).toBe(true);
  });

  it('requires an execute function and object parameters', () => {
    expect(() => tool({ name: 'x' } as never)).toThrow(
      /"x": execute: expected a function, received undefined/,
    );
    expect(() => tool({ name: 's', parameters: v.string(), execute: () => '' } as never)).toThrow(
      'Tool "s": parameters: expected an object schema (models send named arguments), received a schema of type "string"',
    );
  });

  it('passes structured content and domain errors through', async () => {
    const image = tool({
      name: 'image',
      execute: () => ({
        content: [{ type: 'image' as const, mediaType: 'image/png', data: 'AAAA' }],
        isError: true,
      }),
    });
    expect(await image.invoke({})).toEqual({
      content: [{ type: 'image', mediaType: 'image/png', data: 'AAAA' }],
      isError: true,
    });
  });
});

describe('ToolRunContext', () => {
  it('is complete outside an agent', async () => {
    const seen = vi.fn();
    const probe = tool({ name: 'probe', execute: (_args, ctx) => seen(ctx) ?? '' });
    await probe.run({});
    await probe.invoke({});
    for (const [ctx] of seen.mock.calls) {
      expect(ctx).toMatchObject({ toolCallId: 'task', step: 0, runId: 'task', messages: [] });
      expect(ctx.signal.aborted).toBe(false);
      expect(typeof ctx.suspend).toBe('function');
    }
  });

  it('suspend() throws SuspendSignal with reason and payload, which invoke propagates', async () => {
    const ask = tool({
      name: 'ask',
      execute: (_args, ctx) => ctx.suspend('need a human', { question: 'ok?' }),
    });
    const error = await ask.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SuspendSignal);
    expect(error).toMatchObject({
      name: 'SuspendSignal',
      message: 'need a human',
      payload: { question: 'ok?' },
    });
    const strict = tool({ name: 's', throwOnError: true, execute: (_a, ctx) => ctx.suspend() });
    await expect(strict.invoke({})).rejects.toMatchObject({ message: 'Suspended' });
  });

  it('suspend({ reason, payload }), the object form, works like the positional form', async () => {
    const ask = tool({
      name: 'ask',
      execute: (_args, ctx) =>
        ctx.suspend({ reason: 'need a human', payload: { question: 'ok?' } }),
    });
    const error = await ask.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SuspendSignal);
    expect(error).toMatchObject({ message: 'need a human', payload: { question: 'ok?' } });
    const bare = tool({ name: 'b', execute: (_args, ctx) => ctx.suspend({}) });
    await expect(bare.invoke({})).rejects.toMatchObject({
      message: 'Suspended',
      payload: undefined,
    });
  });

  it("calls the caller's suspend positionally whichever form the executor used", async () => {
    const suspend = vi.fn((): never => {
      throw new SuspendSignal('from caller');
    });
    const objectForm = tool({
      name: 'o',
      execute: (_args, ctx) => ctx.suspend({ reason: 'why', payload: 1 }),
    });
    await expect(objectForm.invoke({}, { suspend })).rejects.toThrow('from caller');
    expect(suspend).toHaveBeenCalledWith('why', 1);
  });

  it('refuses a malformed suspension with a message saying what was expected', async () => {
    const suspending = (call: (ctx: ToolRunContext) => never) =>
      tool({ name: 's', execute: (_args, ctx) => call(ctx) }).invoke({});
    expect(await suspending((ctx) => ctx.suspend({ question: 'ok?' } as never))).toEqual({
      content:
        'suspend: expected { reason?, payload? }, received an object with key "question"; put your data in payload',
      isError: true,
    });
    expect(await suspending((ctx) => ctx.suspend({ reason: 7 } as never))).toEqual({
      content: 'suspend: reason: expected a string, received number 7',
      isError: true,
    });
    expect(await suspending((ctx) => ctx.suspend({ payload: 1 }, 2))).toMatchObject({
      content: expect.stringMatching(/^suspend: the payload was given twice/),
      isError: true,
    });
    expect(await suspending((ctx) => ctx.suspend(42 as never))).toEqual({
      content: 'suspend: expected a reason string or { reason?, payload? }, received number 42',
      isError: true,
    });
  });

  it('new SuspendSignal accepts the object form too', () => {
    expect(new SuspendSignal({ reason: 'wait', payload: [1] })).toMatchObject({
      message: 'wait',
      payload: [1],
    });
    expect(new SuspendSignal({ payload: 'p' }).message).toBe('Suspended');
    expect(() => new SuspendSignal({ why: 1 } as never)).toThrow(TypeError);
  });

  it("delegates suspend() to the caller's", async () => {
    const suspend = vi.fn((): never => {
      throw new Error('from caller');
    });
    const ask = tool({ name: 'ask', execute: (_args, ctx) => ctx.suspend('why', 1) });
    expect(await ask.invoke({}, { suspend })).toEqual({ content: 'from caller', isError: true });
    expect(suspend).toHaveBeenCalledWith('why', 1);
  });

  it('carries resumeValue and idempotencyKey from the caller', async () => {
    const resumable = tool({
      name: 'r',
      execute: (_args, ctx) => `${String(ctx.resumeValue)}:${ctx.idempotencyKey}`,
    });
    expect(
      await resumable.invoke({}, { resumeValue: 'yes', idempotencyKey: 'run_1:call_1' }),
    ).toEqual({
      content: 'yes:run_1:call_1',
    });
  });
});

describe('SuspendSignal', () => {
  it("defaults its message to 'Suspended' and keeps the payload", () => {
    const signal = new SuspendSignal();
    expect(signal).toBeInstanceOf(Error);
    expect(signal.name).toBe('SuspendSignal');
    expect(signal.message).toBe('Suspended');
    expect(new SuspendSignal('needs approval', { a: 1 }).payload).toEqual({ a: 1 });
  });
});

describe('toToolDefinition', () => {
  it('returns name, description and JSON Schema parameters', () => {
    expect(toToolDefinition(weather)).toEqual({
      name: 'get_weather',
      description: 'Get current weather for a city.',
      parameters: weather.parameters,
    });
  });
});
