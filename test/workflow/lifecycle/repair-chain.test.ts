/**
 * Repairs meeting chains and requests (decision 254), on SQLite and PostgreSQL: a fork of
 * a run that continued as new starts a chain of its own and leaves the original chain as
 * it was; a run whose history a chain pruned cannot be forked, and is told so; a retried
 * run answers the updates it held unanswered when it failed — once.
 */
import { describe, expect, it } from 'vitest';
import { worker, workflow } from '../../../src/workflow/index.ts';
import { eachWorkflowStore } from '../../helpers/workflow-store.ts';

/** One step per run, two runs: the first continues as new. */
const twoRuns = workflow({
  id: 'two-runs',
  async run(ctx, generation: number) {
    const done = await ctx.step('work', () => `work ${generation}`);
    if (generation === 0) return ctx.continueAsNew(1);
    return done;
  },
});

const prunes = workflow({
  id: 'prunes',
  keepContinuedHistories: 1, // the second switch prunes the first run's history
  async run(ctx, generation: number) {
    await ctx.step('work', () => generation);
    if (generation < 2) return ctx.continueAsNew(generation + 1);
    return generation;
  },
});

let broken = true;
/** Takes updates, then fails in a step until `broken` is false. */
const tally = workflow({
  id: 'tally',
  async run(ctx) {
    let total = 0;
    ctx.onUpdate('add', (n: number) => {
      total += n;
      return total;
    });
    await ctx.step('check', () => {
      if (broken) throw new Error('ledger down');
    });
    await ctx.waitForSignal('close');
    return total;
  },
});

describe.each(eachWorkflowStore('repair-chain'))('repairs and chains (%s)', (_engine, open) => {
  it('forks a run that continued as new into a chain of its own', async ({ skip }) => {
    const store = (await open()) ?? skip();
    const w = worker({ store, workflows: [twoRuns], pollMs: 10 });
    await w.start();
    try {
      const { runId } = await twoRuns.start(0, { store });
      expect(await twoRuns.result(runId, { store })).toBe('work 1');
      const original = await twoRuns.get(runId, { store });
      const fork = await twoRuns.fork(runId, { store, fromStep: 'work', by: 'ops' });
      expect(fork).toMatchObject({ status: 'running', created: true });
      expect(await twoRuns.result(fork.runId, { store })).toBe('work 1'); // its own chain
      const forked = await twoRuns.get(fork.runId, { store });
      expect(forked.forkedFrom).toEqual({ runId, fromStep: 'work' });
      expect(forked.continuedFrom).toBeUndefined(); // not a run of the original chain
      expect(forked.status).toBe('continued');
      expect(forked.chain?.latest).not.toBe(original.chain?.latest);
      expect((await twoRuns.get(runId, { store })).chain).toEqual(original.chain); // untouched
    } finally {
      await w.stop();
    }
  });

  it('refuses to fork a run whose history its chain pruned, saying so', async ({ skip }) => {
    const store = (await open()) ?? skip();
    const w = worker({ store, workflows: [prunes], pollMs: 10 });
    await w.start();
    try {
      const { runId } = await prunes.start(0, { store });
      expect(await prunes.result(runId, { store })).toBe(2);
      await expect(prunes.fork(runId, { store, fromStep: 'work' })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('keepContinuedHistories'),
      });
    } finally {
      await w.stop();
    }
  });

  it('answers, once, the updates a failed run held when it is retried', async ({ skip }) => {
    const store = (await open()) ?? skip();
    broken = true;
    const { runId } = await tally.start(undefined, { store });
    // Queued before any worker runs it; the run then fails before it waits.
    const first = tally.update(runId, 'add', 5, { store, updateId: 'add-5', timeoutMs: 60_000 });
    first.catch(() => {}); // awaited below
    await expect.poll(async () => (await store.getRequest(runId, 'add-5'))?.state).toBe('open');
    const w = worker({ store, workflows: [tally], pollMs: 10 });
    await w.start();
    try {
      await expect(first).rejects.toMatchObject({
        code: 'RUN_FINISHED',
        message: expect.stringContaining('once the run is retried, send it again'),
      });
      expect((await tally.get(runId, { store })).status).toBe('error');
      broken = false;
      await tally.retry(runId, { store, by: 'ops' });
      expect(await tally.update(runId, 'add', 5, { store, updateId: 'add-5' })).toBe(5);
      expect(await tally.update(runId, 'add', 2, { store, updateId: 'add-2' })).toBe(7);
      expect(await tally.update(runId, 'add', 5, { store, updateId: 'add-5' })).toBe(5);
      await tally.signal({ store, runId, name: 'close' });
      expect(await tally.result(runId, { store })).toBe(7);
    } finally {
      await w.stop();
    }
  });
});
