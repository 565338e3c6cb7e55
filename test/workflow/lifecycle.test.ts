/**
 * The lifecycle API on the memory store: idempotent start, signals queued and consumed
 * once, cancellation with finally blocks, timers, get/list/result, and bad input.
 */
import { describe, expect, it } from 'vitest';
import { v } from '../../src/validate/index.ts';
import { worker, workflow } from '../../src/workflow/index.ts';
import { memoryStorePerTest } from '../helpers/workflow-store.ts';

const fresh = memoryStorePerTest();

describe('start', () => {
  it('is idempotent by key, and refuses the key with another input', async () => {
    const store = fresh();
    const flow = workflow({ id: 'keyed', input: v.object({ n: v.number() }), run: () => 'ok' });
    const first = await flow.start({ n: 1 }, { store, key: 'k-1' });
    const again = await flow.start({ n: 1 }, { store, key: 'k-1' });
    expect(first.created).toBe(true);
    expect(again).toEqual({ runId: first.runId, created: false, status: 'running' });
    await expect(flow.start({ n: 2 }, { store, key: 'k-1' })).rejects.toMatchObject({
      code: 'KEY_CONFLICT',
      message: expect.stringContaining('with another input'),
    });
    expect(await flow.list({ store })).toHaveLength(1);
  });
});

describe('signals', () => {
  it('queues a signal sent before the wait and consumes each signal once', async () => {
    const store = fresh();
    const flow = workflow({
      id: 'inbox',
      async run(ctx) {
        const first = await ctx.waitForSignal<number>('n');
        const second = await ctx.waitForSignal<number>('n');
        return [first, second];
      },
    });
    const { runId } = await flow.start(undefined, { store });
    await flow.signal({ store, runId, name: 'n', payload: 1 }); // before the run ever ran
    const w = worker({ store, workflows: [flow] });
    await w.drain();
    expect((await flow.get(runId, { store })).status).toBe('waiting');
    await flow.signal({ store, runId, name: 'n', payload: 2 });
    await flow.signal({ store, runId, name: 'n', payload: 3 }); // never consumed
    await w.drain();
    expect(await flow.result(runId, { store })).toEqual([1, 2]);
  });

  it('returns undefined when a signal wait times out, and keeps that after replay', async () => {
    const store = fresh();
    const flow = workflow({
      id: 'timeout',
      async run(ctx) {
        const scan = await ctx.waitForSignal('scan', { timeoutMs: 20 });
        await ctx.waitForSignal('after');
        return scan ?? 'timed out';
      },
    });
    const w = worker({ store, workflows: [flow] });
    await w.start();
    const { runId } = await flow.start(undefined, { store });
    for (;;) {
      const run = await flow.get(runId, { store });
      if (run.waitingOn?.signals.includes('after')) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await flow.signal({ store, runId, name: 'scan', payload: 'late' }); // after the timeout: ignored by that wait
    await flow.signal({ store, runId, name: 'after' });
    expect(await flow.result(runId, { store, timeoutMs: 30_000 })).toBe('timed out');
    await w.stop();
  });

  it('refuses unknown signal names, bad payloads, and signals to finished runs — clearly', async () => {
    const store = fresh();
    const flow = workflow({
      id: 'declared',
      signals: { scan: v.object({ ok: v.boolean() }) },
      async run(ctx) {
        return ctx.waitForSignal('scan');
      },
    });
    const { runId } = await flow.start(undefined, { store });
    await expect(flow.signal({ store, runId, name: 'scna', payload: {} })).rejects.toMatchObject({
      code: 'UNKNOWN_SIGNAL',
      message: 'workflow "declared" takes no signal "scna"; it takes "scan"',
    });
    await expect(
      flow.signal({ store, runId, name: 'scan', payload: { ok: 'yes' } }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(
      flow.signal({ store, runId: 'nope', name: 'scan', payload: { ok: true } }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await flow.cancel(runId, { store });
    await worker({ store, workflows: [flow] }).drain();
    expect((await flow.get(runId, { store })).status).toBe('cancelled');
    await expect(
      flow.signal({ store, runId, name: 'scan', payload: { ok: true } }),
    ).rejects.toMatchObject({
      code: 'RUN_FINISHED',
      message: `workflow run "${runId}" is cancelled; it takes no more signals`,
    });
  });

  it('holds at most maxQueuedSignals unconsumed signals per run', async () => {
    const store = fresh();
    const flow = workflow({
      id: 'full',
      maxQueuedSignals: 3,
      run: (ctx) => ctx.waitForSignal('never'),
    });
    const { runId } = await flow.start(undefined, { store });
    for (let i = 0; i < 3; i++) await flow.signal({ store, runId, name: 'x', payload: i });
    await expect(flow.signal({ store, runId, name: 'x', payload: 4 })).rejects.toMatchObject({
      code: 'SIGNAL_QUEUE_FULL',
    });
  });
});

describe('cancel', () => {
  it('runs finally blocks (with their cleanup steps) on cancel; a merely waiting run is never unwound', async () => {
    const store = fresh();
    const events: string[] = [];
    const flow = workflow({
      id: 'cleanup',
      async run(ctx) {
        try {
          await ctx.step('reserve', () => events.push('reserve'));
          await ctx.waitForSignal('paid');
          await ctx.step('ship', () => events.push('ship'));
        } finally {
          events.push('finally');
          await ctx.step('release', () => events.push('release'));
        }
      },
    });
    const w = worker({ store, workflows: [flow] });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    await w.drain(); // nothing due: waiting is not unwinding
    expect(events).toEqual(['reserve']);
    const cancelling = await flow.cancel(runId, { store });
    expect(cancelling.cancelRequested).toBe(true);
    await w.drain();
    expect(events).toEqual(['reserve', 'finally', 'release']);
    expect((await flow.get(runId, { store })).status).toBe('cancelled');
    await expect(flow.result(runId, { store })).rejects.toMatchObject({ code: 'CANCELLED' });
    await expect(flow.cancel(runId, { store })).rejects.toMatchObject({ code: 'RUN_FINISHED' });
  });
});

describe('timers, get and list', () => {
  it('shows what a run waits on, fires its timer, and lists runs by status', async () => {
    const store = fresh();
    const flow = workflow({
      id: 'nap',
      async run(ctx) {
        await ctx.sleep('nap', 40);
        return 'awake';
      },
    });
    const w = worker({ store, workflows: [flow] });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    const waiting = await flow.get(runId, { store });
    expect(waiting.status).toBe('waiting');
    expect(Date.parse(waiting.waitingOn!.timer!)).toBeGreaterThan(Date.parse(waiting.createdAt));
    expect((await flow.list({ store, status: 'waiting' })).map((r) => r.runId)).toEqual([runId]);
    await w.start();
    expect(await flow.result(runId, { store, timeoutMs: 30_000 })).toBe('awake');
    await w.stop();
    expect(await flow.list({ store, status: 'waiting' })).toEqual([]);
  });

  it('result times out with TIMEOUT while the run waits', async () => {
    const store = fresh();
    const flow = workflow({ id: 'slow', run: (ctx) => ctx.waitForSignal('never') });
    const { runId } = await flow.start(undefined, { store });
    await expect(flow.result(runId, { store, timeoutMs: 30 })).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
  });

  it('leaves runs of unknown workflows untouched and reports them', async () => {
    const store = fresh();
    const known = workflow({ id: 'known', run: () => 1 });
    const other = workflow({ id: 'other', run: () => 2 });
    const { runId } = await other.start(undefined, { store });
    const reported: string[][] = [];
    const report = await worker({
      store,
      workflows: [known],
      onUnknownWorkflow: (ids) => reported.push(ids),
    }).drain();
    expect(report.unknown).toEqual(['other']);
    expect(reported).toEqual([['other']]);
    const run = await other.get(runId, { store });
    expect(run.status).toBe('running');
    expect(run.worker).toBeUndefined();
  });
});

describe('history limit', () => {
  it('fails a run that loops past maxHistoryEntries with TOO_LARGE instead of growing without bound', async () => {
    const store = fresh();
    const endless = workflow({
      id: 'endless',
      maxHistoryEntries: 5,
      async run(ctx) {
        for (let i = 0; ; i++) await ctx.step(`tick-${i}`, () => i);
      },
    });
    const { runId } = await endless.start(undefined, { store });
    await worker({ store, workflows: [endless] }).drain();
    const run = await endless.get(runId, { store });
    expect(run.error).toMatchObject({
      code: 'TOO_LARGE',
      message: `step "tick-5" would be checkpoint 6 of run "${runId}", more than its limit of 5 (maxHistoryEntries); split long work into child workflows`,
    });
    expect(await endless.history(runId, { store })).toHaveLength(5);
  });
});
