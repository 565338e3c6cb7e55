/**
 * Queries and updates follow a continue-as-new chain (decision 230): sent to the first
 * run's id after it continued, they reach the chain's live run.
 */
import { expect, it } from 'vitest';
import { worker, workflow } from '../../../src/workflow/index.ts';
import { memoryStorePerTest } from '../../helpers/workflow-store.ts';

const fresh = memoryStorePerTest();

const counter = workflow({
  id: 'counter',
  async run(ctx, generation: number) {
    let added = 0;
    ctx.onQuery('generation', () => generation);
    ctx.onUpdate('add', (n: number) => {
      added += n;
      return { generation, added };
    });
    await ctx.waitForSignal('next');
    if (generation < 2) return ctx.continueAsNew(generation + 1);
    return added;
  },
});

it('sends a query and an update to the live run of the chain the given run id started', async () => {
  const store = fresh();
  const w = worker({ store, workflows: [counter], pollMs: 10 });
  await w.start();
  try {
    const { runId } = await counter.start(0, { store });
    await counter.signal({ store, runId, name: 'next' });
    await counter.signal({ store, runId, name: 'next' });
    await expect
      .poll(async () => (await counter.get(runId, { store })).chain?.latest)
      .not.toBe(undefined);
    await expect
      .poll(() => counter.query(runId, 'generation', undefined, { store }), { timeout: 10_000 })
      .toBe(2);
    expect(await counter.update(runId, 'add', 5, { store, updateId: 'add-5' })).toEqual({
      generation: 2,
      added: 5,
    });
    await counter.signal({ store, runId, name: 'next' });
    expect(await counter.result(runId, { store })).toBe(5);
  } finally {
    await w.stop();
  }
});
