/**
 * `workflowUIChunks`: a real workflow on SQLite and PostgreSQL, driven by a worker, read
 * live by `ai`'s own `readUIMessageStream` as a page would — events, a text stream and a
 * data stream, a decision that goes pending → decided, a signal wait, the end — and read
 * again once ended: the same chunks each time. A failed run ends with `data-fino-error`
 * and `error`; a cancelled run closes its pending decision; a continued one names its
 * successor; an unknown run is `NOT_FOUND`; abort and `return()` leave no timer or watcher.
 */

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tool } from '../../../src/ai/tool/index.ts';
import { type UIMessageChunk, workflowUIChunks } from '../../../src/ai/ui/index.ts';
import { v } from '../../../src/validate/index.ts';
import {
  NonRetryableError,
  sqliteWorkflowStore,
  type WorkflowStore,
  worker,
  workflow,
  workflowRuns,
} from '../../../src/workflow/index.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import {
  allChunks,
  liveTimers,
  readMessage,
  until,
  watchedStore,
} from '../../helpers/ui-stream.ts';
import { eachWorkflowStore } from '../../helpers/workflow-store.ts';

const dir = tempDir('ui-workflow');
let files = 0;
const sqlite = () => sqliteWorkflowStore(join(dir, `${++files}.db`));

const refund = tool({
  name: 'refund',
  description: 'Refund an order.',
  parameters: v.object({ orderId: v.string() }),
  requiresApproval: true,
  execute: ({ orderId }: { orderId: string }) => `refunded ${orderId}`,
});

/** Emits, writes a text and a data stream, waits for an approval and a signal, finishes. */
const order = workflow({
  id: 'ui-order',
  async run(ctx, item: string) {
    await ctx.emit('stage', 'packing');
    await ctx.writeStream('text', 'Packing. ');
    await ctx.writeStream('progress', { done: 1, of: 2 });
    const refunded = await ctx.call(refund, { orderId: item });
    await ctx.emit('stage', 'refunded');
    const courier = await ctx.waitForSignal<string>('courier');
    await ctx.writeStream('text', `Shipped with ${courier}.`);
    await ctx.writeStream('progress', { done: 2, of: 2 });
    await ctx.closeStream('text');
    return { item, courier, refund: refunded.content };
  },
});

const options = { streams: ['progress'], textStream: 'text', pollMs: 10 };

/** The chunks of `chunks`, each also copied to `seen` as it passes (ai's reader updates data parts in place). */
async function* tap(chunks: AsyncIterable<UIMessageChunk>, seen: UIMessageChunk[]) {
  for await (const chunk of chunks) {
    seen.push(structuredClone(chunk));
    yield chunk;
  }
}

const ofType = <T extends UIMessageChunk['type']>(chunks: UIMessageChunk[], type: T) =>
  chunks.filter((c): c is Extract<UIMessageChunk, { type: T }> => c.type === type);

/** The message parts of `type`'s data, in order. */
const dataOf = (parts: ReadonlyArray<{ type: string }>, type: string) =>
  parts.filter((p) => p.type === type).map((p) => (p as unknown as { data: unknown }).data);

/** Drives `order` for run `runId` through its approval and signal while a page reads it. */
async function driveOrder(store: WorkflowStore, runId: string, seen: UIMessageChunk[]) {
  const runs = workflowRuns(store);
  const w = worker({ store, workflows: [order] });
  await w.drain();
  await until(
    () => ofType(seen, 'data-fino-workflow-decision').some((c) => c.data.state === 'pending'),
    'the page to show the pending decision',
  );
  const [pending] = (await runs.get(runId)).pending!;
  await runs.decide({ runId, decisionId: pending.decisionId }, { approve: true }, { by: 'ana' });
  await w.drain();
  await until(
    () =>
      ofType(seen, 'data-fino-workflow').some(
        (c) => (c.data.waitingOn as { signals?: string[] })?.signals?.[0] === 'courier',
      ),
    'the page to show the signal wait',
  );
  await runs.signal(runId, 'courier', 'DHL');
  await w.drain();
}

describe.each(eachWorkflowStore('ui-workflow'))('workflowUIChunks (%s)', (_engine, open) => {
  it('shows a run live to its end as one message ai’s reader reads without error, and replays it the same', async ({
    skip,
  }) => {
    const store = (await open()) ?? skip();
    const { runId } = await order.start('o-17', { store });
    const seen: UIMessageChunk[] = [];
    const reading = readMessage(tap(workflowUIChunks(workflowRuns(store), runId, options), seen));
    await driveOrder(store, runId, seen);
    const { message, errors } = await reading;

    expect(errors).toEqual([]);
    expect(message?.id).toBe(runId);
    expect(message?.metadata).toEqual({ fino: { runId, status: 'done' } });
    const parts = message!.parts;
    const output = { item: 'o-17', courier: 'DHL', refund: 'refunded o-17' };
    expect(dataOf(parts, 'data-fino-workflow')).toEqual([
      { runId, workflowId: 'ui-order', status: 'done', output },
    ]);
    const decisions = ofType(seen, 'data-fino-workflow-decision');
    expect(decisions.map((c) => c.data.state)).toEqual(['pending', 'decided']);
    expect(decisions[0].data).toMatchObject({
      kind: 'approval',
      toolName: 'refund',
      detail: { args: { orderId: 'o-17' } },
    });
    expect(dataOf(parts, 'data-fino-workflow-decision')).toEqual([
      {
        runId,
        decisionId: decisions[0].data.decisionId,
        state: 'decided',
        decision: 'approve',
        toolName: 'refund',
      },
    ]);
    expect(dataOf(parts, 'data-fino-workflow-event')).toEqual([
      { runId, name: 'stage', value: 'packing' },
      { runId, name: 'stage', value: 'refunded' },
    ]);
    expect(dataOf(parts, 'data-fino-workflow-stream')).toEqual([
      { runId, stream: 'progress', offset: 0, value: { done: 1, of: 2 } },
      { runId, stream: 'progress', offset: 1, value: { done: 2, of: 2 } },
    ]);
    expect(parts.filter((p) => p.type === 'text')).toEqual([
      { type: 'text', text: 'Packing. Shipped with DHL.', state: 'done' },
    ]);
    expect(seen.at(-1)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      messageMetadata: { fino: { runId, status: 'done' } },
    });

    // A reconnect reads the ended run again: the same chunks every time, in a fixed order.
    const again = await allChunks(workflowUIChunks(workflowRuns(store), runId, options));
    expect(await allChunks(workflowUIChunks(workflowRuns(store), runId, options))).toEqual(again);
    expect(again.map((c) => c.type)).toEqual([
      'start',
      'data-fino-workflow',
      'data-fino-workflow-decision',
      'data-fino-workflow-event',
      'data-fino-workflow-event',
      'data-fino-workflow-stream',
      'data-fino-workflow-stream',
      'text-start',
      'text-delta',
      'text-delta',
      'text-end',
      'finish',
    ]);
    const replayed = await readMessage(workflowUIChunks(workflowRuns(store), runId, options));
    const sorted = (list: unknown[]) => list.map((p) => JSON.stringify(p)).sort();
    expect(sorted(replayed.message!.parts)).toEqual(sorted(parts));
  });
});

describe('workflowUIChunks: how a run ends', () => {
  it('ends a failed run with data-fino-error and the error chunk, carrying its code', async () => {
    const store = sqlite();
    try {
      const failing = workflow({
        id: 'ui-failing',
        async run(ctx) {
          await ctx.emit('stage', 'charging');
          await ctx.step('charge', () => {
            throw new NonRetryableError('card declined');
          });
        },
      });
      const { runId } = await failing.start(undefined, { store });
      const seen: UIMessageChunk[] = [];
      const reading = readMessage(
        tap(workflowUIChunks(workflowRuns(store), runId, { pollMs: 10 }), seen),
      );
      await worker({ store, workflows: [failing] }).drain();
      const { message, errors } = await reading;
      const { error } = await workflowRuns(store).get(runId);
      expect(error?.code).toBe('STEP_FAILED');
      const text = `STEP_FAILED: ${error!.message}`;
      expect(seen.slice(-3)).toEqual([
        { type: 'data-fino-error', data: { code: 'STEP_FAILED', message: error!.message } },
        { type: 'error', errorText: text },
        {
          type: 'finish',
          finishReason: 'error',
          messageMetadata: { fino: { runId, status: 'error' } },
        },
      ]);
      expect(errors.map((e) => (e as Error).message)).toEqual([text]);
      expect(dataOf(message!.parts, 'data-fino-error')).toEqual([
        { code: 'STEP_FAILED', message: error!.message },
      ]);
      expect(dataOf(message!.parts, 'data-fino-workflow')).toEqual([
        {
          runId,
          workflowId: 'ui-failing',
          status: 'error',
          error: { code: 'STEP_FAILED', message: error!.message },
        },
      ]);
    } finally {
      await store.close();
    }
  });

  it('closes the pending decision of a run cancelled while it waits for it', async () => {
    const store = sqlite();
    try {
      const { runId } = await order.start('o-18', { store });
      const seen: UIMessageChunk[] = [];
      const reading = allChunks(
        tap(workflowUIChunks(workflowRuns(store), runId, { pollMs: 10 }), seen),
      );
      const w = worker({ store, workflows: [order] });
      await w.drain();
      await until(
        () => ofType(seen, 'data-fino-workflow-decision').length > 0,
        'the pending decision',
      );
      await workflowRuns(store).cancel(runId, { by: 'ops' });
      await w.drain();
      const chunks = await reading;
      const states = ofType(chunks, 'data-fino-workflow-decision').map((c) => c.data.state);
      expect(states).toEqual(['pending', 'closed']);
      expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'other' });
      expect(ofType(chunks, 'data-fino-workflow').at(-1)?.data.status).toBe('cancelled');
    } finally {
      await store.close();
    }
  });

  it('ends the message of a run that continued as new, naming its successor', async () => {
    const store = sqlite();
    try {
      const rounds = workflow({
        id: 'ui-rounds',
        async run(ctx, round: number) {
          await ctx.emit('round', round);
          if (round < 2) await ctx.continueAsNew(round + 1);
          return round;
        },
      });
      const { runId } = await rounds.start(1, { store });
      await worker({ store, workflows: [rounds] }).drain();
      const chunks = await allChunks(workflowUIChunks(workflowRuns(store), runId));
      const successor = (await workflowRuns(store).get(runId)).continuedTo;
      expect(successor).toBeDefined();
      expect(ofType(chunks, 'data-fino-workflow')[0].data).toMatchObject({
        status: 'continued',
        continuedTo: successor,
      });
      expect(ofType(chunks, 'data-fino-workflow-event').map((c) => c.data.value)).toEqual([1]);
      expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'other' });
    } finally {
      await store.close();
    }
  });

  it('rejects the first read of an unknown run with NOT_FOUND', async () => {
    const store = sqlite();
    try {
      await expect(
        allChunks(workflowUIChunks(workflowRuns(store), 'wf_nobody', { streams: ['s'] })),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('wf_nobody') });
    } finally {
      await store.close();
    }
  });
});

describe('workflowUIChunks: stopping', () => {
  /** A run waiting for a signal that never comes, with one stream written and one not. */
  const waiter = workflow({
    id: 'ui-waiter',
    async run(ctx) {
      await ctx.writeStream('log', 'started');
      await ctx.waitForSignal('never');
    },
  });

  /** A waiting run of `waiter` on a store counting its watchers, and the timers before reading it. */
  async function waitingRun(base: WorkflowStore) {
    const { store, watching } = watchedStore(base);
    const { runId } = await waiter.start(undefined, { store });
    await worker({ store, workflows: [waiter] }).drain();
    return { store, watching, runId, timers: liveTimers() };
  }

  it('stops at once on abort, throwing an AbortError and leaving no timer or watcher', async () => {
    const base = sqlite();
    try {
      const { store, watching, runId, timers } = await waitingRun(base);
      const abort = new AbortController();
      const seen: UIMessageChunk[] = [];
      const reading = allChunks(
        tap(
          workflowUIChunks(workflowRuns(store), runId, {
            streams: ['log', 'quiet'],
            signal: abort.signal,
            pollMs: 50,
          }),
          seen,
        ),
      );
      await until(() => seen.length >= 3 && watching() === 2, 'the page to follow both streams');
      abort.abort();
      const started = Date.now();
      await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(watching()).toBe(0);
      expect(liveTimers()).toBeLessThanOrEqual(timers);
      const before = AbortSignal.abort();
      await expect(
        allChunks(workflowUIChunks(workflowRuns(store), runId, { signal: before })),
      ).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      await base.close();
    }
  });

  it('stops on the reader’s return() mid-wait, leaving no timer or watcher', async () => {
    const base = sqlite();
    try {
      const { store, watching, runId, timers } = await waitingRun(base);
      const iterator = workflowUIChunks(workflowRuns(store), runId, {
        streams: ['quiet'],
        pollMs: 50,
      })[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ type: 'start' });
      expect((await iterator.next()).value).toMatchObject({ type: 'data-fino-workflow' });
      const pending = iterator.next(); // waits: nothing new comes
      await until(() => watching() === 1, 'the stream watcher');
      await iterator.return?.();
      expect(await pending).toEqual({ done: true, value: undefined });
      expect(watching()).toBe(0);
      expect(liveTimers()).toBeLessThanOrEqual(timers);
      expect(await iterator.next()).toEqual({ done: true, value: undefined });
    } finally {
      await base.close();
    }
  });
});
