import { describe, expect, it } from 'vitest';
import { tool } from '../../src/ai/tool/index.ts';
import { SuspendSignal, Task } from '../../src/task/index.ts';
import * as tools from './fixtures/isolated-tools.ts';

const FIXTURE = new URL('./fixtures/isolated-tools.ts', import.meta.url).href;

const threadOf = async (): Promise<number> =>
  JSON.parse(String((await tools.threadOf.invoke({})).content)).threadId;

describe("isolation: 'worker'", () => {
  it('runs the executor in a worker thread and returns its result', async () => {
    expect(await tools.add.invoke({ a: 1, b: 2 })).toEqual({ content: '3' });
    expect(await tools.add.run({ a: 2, b: 3 })).toBe('5');
    const { content } = await tools.threadOf.invoke({});
    expect(JSON.parse(String(content))).toMatchObject({ isMainThread: false });
    expect(tools.add.isolated).toBe(true);
  });

  it('validates the arguments in the caller, before any worker runs', async () => {
    expect(await tools.add.invoke({ a: 'one', b: 2 })).toMatchObject({
      isError: true,
      content: expect.stringContaining('Invalid arguments for "add"'),
    });
  });

  it('stops an infinite loop at its deadline with an isError result naming it', async () => {
    const result = await tools.spin.invoke({});
    expect(result).toEqual({ content: 'Tool "spin" timed out after 200 ms', isError: true });
  });

  it('fails a synchronous 1.5 s loop with timeoutMs 100 instead of returning its success', async () => {
    expect(await tools.busy.invoke({ ms: 1500 })).toEqual({
      content: 'Tool "busy" timed out after 100 ms',
      isError: true,
    });
    // Within the deadline the same tool succeeds: only a late call is stopped.
    expect(await tools.busy.invoke({ ms: 1 })).toEqual({ content: 'finished' });
  });

  it('reuses an idle worker, and replaces only the one that was terminated', async () => {
    const first = await threadOf();
    expect(await threadOf()).toBe(first);
    const [spun, added] = await Promise.all([
      tools.spin.invoke({}),
      tools.add.invoke({ a: 1, b: 1 }),
    ]);
    expect(spun.isError).toBe(true);
    expect(added).toEqual({ content: '2' });
  });

  it('finds a tool the module defines without exporting it', async () => {
    expect(await tools.callHidden()).toEqual({ content: 'found' });
  });

  it('finds the tool in the module given as isolation.module', async () => {
    const add = tool({
      name: 'add',
      isolation: { type: 'worker', module: FIXTURE },
      execute: () => "the caller's copy, never run",
    });
    expect(await add.invoke({ a: 4, b: 5 })).toEqual({ content: '9' });
  });

  it('names the module and the constraint when the worker cannot find the tool', async () => {
    const result = await tools.makeLate().invoke({});
    expect(result.isError).toBe(true);
    expect(result.content).toContain('Isolated task "late" was not found in');
    expect(result.content).toContain('isolated-tools.ts');
    expect(result.content).toContain('at its top level');
  });

  it("turns the executor's error into an isError result", async () => {
    expect(await tools.fails.invoke({})).toEqual({ content: 'disk full', isError: true });
    await expect(tools.fails.run({})).rejects.toThrow('disk full');
  });

  it('turns a result that cannot be cloned into "returned an invalid result"', async () => {
    const result = await tools.returnsFunction.invoke({});
    expect(result.isError).toBe(true);
    expect(result.content).toContain('Tool "returns_function" returned an invalid result');
    expect(result.content).toContain('could not be cloned');
  });

  it('passes the plain-data context fields to the executor', async () => {
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const { content } = await tools.context.invoke(
      {},
      { toolCallId: 'c1', step: 2, runId: 'r1', messages, idempotencyKey: 'r1:c1', resumeValue: 7 },
    );
    expect(JSON.parse(String(content))).toMatchObject({
      toolCallId: 'c1',
      step: 2,
      runId: 'r1',
      messages,
      resumeValue: 7,
      idempotencyKey: 'r1:c1',
    });
  });

  it("forwards the caller's abort to ctx.signal and rejects with its reason", async () => {
    const controller = new AbortController();
    const call = tools.waitForAbort.invoke({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rethrows a suspension in the caller with its reason and payload, and resumes', async () => {
    const error = await tools.ask.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SuspendSignal);
    expect(error).toMatchObject({
      message: 'need a colour',
      payload: { choices: ['red', 'blue'] },
    });
    expect(await tools.ask.invoke({}, { resumeValue: 'blue' })).toEqual({ content: 'chose blue' });
  });

  it("delegates a suspension to the caller's suspend when it gave one", async () => {
    const seen: unknown[] = [];
    const suspend = (reason?: string, payload?: unknown): never => {
      seen.push(reason, payload);
      throw new SuspendSignal('harness');
    };
    await expect(tools.ask.invoke({}, { suspend })).rejects.toThrow('harness');
    expect(seen).toEqual(['need a colour', { choices: ['red', 'blue'] }]);
  });

  it("sends what the executor writes to the caller's writer", async () => {
    expect(await tools.writes.invoke({})).toEqual({ content: 'partial done' });
  });

  it('fails a call whose worker exceeds its memory limit, and the caller survives', async () => {
    expect(await tools.hog.invoke({})).toEqual({
      content:
        'Tool "hog" ran out of memory in its worker (resourceLimits {"maxOldGenerationSizeMb":32}) and was stopped',
      isError: true,
    });
    expect(await tools.add.invoke({ a: 1, b: 1 })).toEqual({ content: '2' });
  });

  it('fails a call whose worker exits', async () => {
    expect(await tools.exits.invoke({})).toEqual({
      content: 'Tool "exits": its worker exited with code 3 before returning',
      isError: true,
    });
  });

  it('works for a Task as well as a Tool', () => {
    expect(tools.writes).toBeInstanceOf(Task);
    expect(tools.writes.isolated).toBe(true);
    expect(new Task({ name: 'plain', run: () => '' }).isolated).toBe(false);
  });
});

describe('isolation option checks', () => {
  const make = (isolation: unknown) => () =>
    tool({ name: 't', isolation: isolation as 'worker', execute: () => '' });

  it.each([
    [
      'thread',
      `expected 'worker' or { type: 'worker', module?, resourceLimits?, maxExternalMemoryMb? }, received string "thread"`,
    ],
    [null, 'received null'],
    [{ type: 'process' }, `isolation.type: expected 'worker', received string "process"`],
    [
      { type: 'worker', modul: 'x' },
      'unknown option "modul"; expected type, module, resourceLimits or maxExternalMemoryMb',
    ],
    [
      { type: 'worker', module: 'not a url' },
      `isolation.module: expected the defining module's URL`,
    ],
    [
      { type: 'worker', resourceLimits: 64 },
      'isolation.resourceLimits: expected an object, received number',
    ],
    [{ type: 'worker', resourceLimits: { heap: 1 } }, 'unknown limit "heap"'],
  ])('rejects %j', (isolation, message) => {
    expect(make(isolation)).toThrow(TypeError);
    expect(make(isolation)).toThrow(message);
  });

  it.each([0, -1, Number.NaN, '64'])('rejects the memory limit %j', (limit) => {
    expect(make({ type: 'worker', resourceLimits: { maxOldGenerationSizeMb: limit } })).toThrow(
      'resourceLimits.maxOldGenerationSizeMb: expected a number of megabytes above 0',
    );
  });
});
