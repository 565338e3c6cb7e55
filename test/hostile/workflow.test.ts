/**
 * Hostile input to fino:workflow: values whose reading throws, prototype-polluting keys,
 * absurd nesting and sizes, ids and names out of bounds, forged tokens — each refused
 * with a clear error or handled, and nothing lost or crashed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  memoryWorkflowStore,
  type WorkflowStore,
  worker,
  workflow,
  workflowRuns,
} from '../../src/workflow/index.ts';

let store: WorkflowStore;
afterEach(async () => {
  await store?.close();
});

const throwingProxy = () =>
  new Proxy(
    { a: 1 },
    {
      get() {
        throw new Error('boom');
      },
    },
  );

describe('hostile workflow input', () => {
  it('refuses an input whose reading throws, naming what was wrong', async () => {
    store = memoryWorkflowStore();
    const flow = workflow({ id: 'in', run: () => 1 });
    await expect(flow.start(throwingProxy(), { store })).rejects.toMatchObject({
      code: 'NOT_JSON',
      message: expect.stringContaining('the input of workflow "in" must be JSON'),
    });
    expect(await store.list()).toEqual([]);
  });

  it('fails a step whose result has a toJSON function, a getter that throws, 10 000 levels or a bigint, and keeps the run readable', async () => {
    store = memoryWorkflowStore();
    const flow = workflow({
      id: 'results',
      async run(ctx) {
        const errors: string[] = [];
        for (const [id, value] of [
          ['to-json', { toJSON: () => 'sneaky' }],
          ['getter', throwingProxy()],
          ['deep', JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`)],
          ['bigint', { n: 10n }],
        ] as const) {
          try {
            await ctx.step(id, () => value);
          } catch (error) {
            errors.push(`${id}: ${(error as { code: string }).code}`);
          }
        }
        return errors;
      },
    });
    const { runId } = await flow.start(undefined, { store });
    await worker({ store, workflows: [flow] }).drain();
    expect(await flow.result(runId, { store })).toEqual([
      'to-json: NOT_JSON',
      'getter: STEP_FAILED', // awaiting the result reads its `then`, which throws: the step failed
      'deep: NOT_JSON',
      'bigint: NOT_JSON',
    ]);
  });

  it('passes prototype-polluting keys through as data, polluting nothing', async () => {
    store = memoryWorkflowStore();
    const flow = workflow({ id: 'proto', run: (ctx) => ctx.waitForSignal('data') });
    const { runId } = await flow.start(undefined, { store });
    const payload = JSON.parse(
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
    );
    await flow.signal({ store, runId, name: 'data', payload });
    await worker({ store, workflows: [flow] }).drain();
    const output = (await flow.result(runId, { store })) as Record<string, unknown>;
    expect(Object.hasOwn(output, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses ids and names out of bounds', async () => {
    store = memoryWorkflowStore();
    const flow = workflow({
      id: 'ids',
      async run(ctx) {
        const refusals: string[] = [];
        for (const attempt of [
          () => ctx.step('x'.repeat(10_000), () => 1),
          () => ctx.step('$now#1', () => 1),
          () => ctx.sleep('nap', Number.NaN),
          () => ctx.waitForSignal('', {}),
          () => ctx.step('retry', () => 1, { retry: { maxAttempts: 1e9 } }),
        ]) {
          try {
            await attempt();
          } catch (error) {
            refusals.push((error as { code: string }).code);
          }
        }
        return refusals;
      },
    });
    const { runId } = await flow.start(undefined, { store });
    await worker({ store, workflows: [flow] }).drain();
    expect(await flow.result(runId, { store })).toEqual(Array(5).fill('INVALID_ARGUMENT'));
    await expect(flow.signal({ store, runId, name: 'n'.repeat(10_000) })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(() => workflow({ id: '../etc/passwd', run: () => 1 })).toThrow(/workflow: id: expected/);
  });

  it('answers forged tokens NOT_FOUND, and a decision that is not one INVALID_ARGUMENT', async () => {
    store = memoryWorkflowStore();
    const runs = workflowRuns(store);
    await expect(runs.decide('A'.repeat(32), { approve: true })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(runs.decide("' OR 1=1 --", { approve: true })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(runs.decide('A'.repeat(32), { maybe: true } as never)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('records any thrown value as a readable error: a revoked proxy, a symbol, a string of 1 MB', async () => {
    store = memoryWorkflowStore();
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const values: unknown[] = [proxy, Symbol('s'), 'e'.repeat(1024 * 1024)];
    const flows = values.map((value, i) =>
      workflow({
        id: `throws-${i}`,
        run: () => {
          throw value;
        },
      }),
    );
    const ids: string[] = [];
    for (const flow of flows) ids.push((await flow.start(undefined, { store })).runId);
    await worker({ store, workflows: flows }).drain();
    const errors = await Promise.all(
      flows.map(async (flow, i) => (await flow.get(ids[i], { store })).error!),
    );
    expect(errors[0].message).toBe('an object that cannot be described was thrown');
    expect(errors[1].message).toBe('Symbol(s) was thrown');
    expect(errors[2].message.length).toBeLessThanOrEqual(8_192); // bounded in the store
  });
});
