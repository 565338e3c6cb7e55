/**
 * Queries and updates follow a continue-as-new chain (decisions 230, 254), on SQLite and
 * PostgreSQL: sent to the first run's id after it continued, they reach the chain's live
 * run; an update id names one update in the whole chain — resent after the run that
 * applied it continued as new, it answers the first result and is not applied again; an
 * update still queued when its run continues as new moves to the successor and is
 * answered there.
 */
import { describe, expect, it } from 'vitest';
import {
  type AnyWorkflow,
  type WorkflowStore,
  worker,
  workflow,
} from '../../../src/workflow/index.ts';
import { eachWorkflowStore } from '../../helpers/workflow-store.ts';

const counter = workflow({
  id: 'counter',
  async run(ctx, generation: number) {
    let added = 0;
    ctx.onQuery('generation', () => generation);
    ctx.onQuery('added', () => added);
    ctx.onUpdate('add', (n: number) => {
      added += n;
      return { generation, added };
    });
    await ctx.waitForSignal('next');
    if (generation < 2) return ctx.continueAsNew(generation + 1);
    return added;
  },
});

/** Holds its first run in a step until `release()`, then continues as new; the successor takes updates. */
let release = () => {};
let stepStarted = () => {};
const slowFirst = workflow({
  id: 'slow-first',
  async run(ctx, generation: number) {
    if (generation === 0) {
      await ctx.step('slow', async () => {
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        stepStarted();
        await released;
      });
      return ctx.continueAsNew(1);
    }
    ctx.onUpdate('add', (n: number) => ({ generation, added: n }));
    await ctx.waitForSignal('done');
    return generation;
  },
});

/** Drives runs in the background while `act` runs. */
async function withWorker<T>(
  store: WorkflowStore,
  workflows: AnyWorkflow[],
  act: () => Promise<T>,
): Promise<T> {
  const w = worker({ store, workflows, pollMs: 10 });
  await w.start();
  try {
    return await act();
  } finally {
    await w.stop();
  }
}

/** Waits until the chain of `runId` has moved on to its generation `n`. */
const reachGeneration = (store: WorkflowStore, runId: string, n: number) =>
  expect
    .poll(() => counter.query(runId, 'generation', undefined, { store }), { timeout: 15_000 })
    .toBe(n);

describe.each(eachWorkflowStore('requests-chain'))('requests to a chain (%s)', (_engine, open) => {
  it('sends a query and an update to the live run of the chain the given run id started', async ({
    skip,
  }) => {
    const store = (await open()) ?? skip();
    await withWorker(store, [counter], async () => {
      const { runId } = await counter.start(0, { store });
      await counter.signal({ store, runId, name: 'next' });
      await counter.signal({ store, runId, name: 'next' });
      await reachGeneration(store, runId, 2);
      expect(await counter.update(runId, 'add', 5, { store, updateId: 'add-5' })).toEqual({
        generation: 2,
        added: 5,
      });
      await counter.signal({ store, runId, name: 'next' });
      expect(await counter.result(runId, { store })).toBe(5);
    });
  });

  it('answers an update resent after its run continued as new with its first result, once', async ({
    skip,
  }) => {
    const store = (await open()) ?? skip();
    await withWorker(store, [counter], async () => {
      const { runId } = await counter.start(0, { store });
      const first = await counter.update(runId, 'add', 5, { store, updateId: 'add-5' });
      expect(first).toEqual({ generation: 0, added: 5 });
      await counter.signal({ store, runId, name: 'next' }); // applied just before the switch
      await reachGeneration(store, runId, 1);
      // The caller did not see the answer and sends it again: the chain knows it.
      expect(await counter.update(runId, 'add', 5, { store, updateId: 'add-5' })).toEqual(first);
      expect(await counter.query(runId, 'added', undefined, { store })).toBe(0); // not applied again
      await expect(
        counter.update(runId, 'add', 6, { store, updateId: 'add-5' }),
      ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      // A new id is applied in the live run.
      expect(await counter.update(runId, 'add', 2, { store, updateId: 'add-2' })).toEqual({
        generation: 1,
        added: 2,
      });
    });
  });

  it('moves an update still queued at the switch to the successor, which answers it', async ({
    skip,
  }) => {
    const store = (await open()) ?? skip();
    await withWorker(store, [slowFirst], async () => {
      const started = new Promise<void>((resolve) => {
        stepStarted = resolve;
      });
      const { runId } = await slowFirst.start(0, { store });
      await started;
      const answer = slowFirst.update(runId, 'add', 7, { store, updateId: 'queued' });
      await expect.poll(async () => (await store.getRequest(runId, 'queued'))?.state).toBe('open');
      release(); // the first run continues as new with the update queued
      expect(await answer).toEqual({ generation: 1, added: 7 });
      await slowFirst.signal({ store, runId, name: 'done' });
      expect(await slowFirst.result(runId, { store })).toBe(1);
    });
  });
});
