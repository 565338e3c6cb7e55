/**
 * The store of no data a replay runs against: a history left waiting on a child run, on
 * a signal whose timeout has passed replays to "waiting" — the child is not started
 * again, the timed-out wait completes in memory only, the timer after it is not started,
 * and no step after them runs.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { exportHistory, replayHistory, worker, workflow } from '../../../src/workflow/index.ts';
import { memoryStorePerTest } from '../../helpers/workflow-store.ts';

const fresh = memoryStorePerTest();

it('replays waits the history left open to "waiting", starting and running nothing', async () => {
  const store = fresh();
  let ran = 0;
  const kid = workflow({ id: 'kid', run: () => ran++ });
  const parent = workflow({
    id: 'parent',
    async run(ctx) {
      await ctx.child(kid, undefined, { id: 'kid' });
      return ctx.step('after-child', () => ran++);
    },
  });
  const waits = workflow({
    id: 'waits',
    async run(ctx) {
      await ctx.waitForSignal('go', { timeoutMs: 100 });
      await ctx.sleep('nap', 1);
      return ctx.step('after-waits', () => ran++);
    },
  });
  const started = [
    await parent.start(undefined, { store }),
    await waits.start(undefined, { store }),
  ];
  await worker({ store, workflows: [parent, waits] }).drain(); // the kid is served by no worker here
  await sleep(150); // the signal's timeout has passed; the waits' run is not driven again
  const [onChild, onSignal] = await Promise.all(
    started.map(({ runId }) => exportHistory(runId, { store })),
  );
  expect(onChild.entries).toMatchObject([{ kind: 'child', state: 'waiting' }]);
  expect(onSignal.entries).toMatchObject([{ kind: 'signal', state: 'waiting' }]);
  const runsBefore = (await store.list()).length;
  await expect(replayHistory(parent, onChild)).resolves.toMatchObject({ ended: 'waiting' });
  await expect(replayHistory(waits, onSignal)).resolves.toMatchObject({ ended: 'waiting' });
  expect(ran).toBe(0);
  expect((await store.list()).length).toBe(runsBefore);
});

it('replays a run that wrote streams and continued as new, writing no chunk and starting no run', async () => {
  const store = fresh();
  const loop = workflow({
    id: 'loop',
    async run(ctx, n: number) {
      const seen = await ctx.step('count', () => n + 1);
      await ctx.writeStream('progress', { seen });
      await ctx.closeStream('progress');
      if (n === 0) await ctx.continueAsNew(seen);
      return seen;
    },
  });
  const { runId } = await loop.start(0, { store });
  await worker({ store, workflows: [loop] }).drain();
  const history = await exportHistory(runId, { store });
  const chunks = async () => {
    const all = [];
    for await (const chunk of loop.readStream(runId, 'progress', { store })) all.push(chunk);
    return all;
  };
  const before = { runs: (await store.list()).length, chunks: await chunks() };
  expect(before.chunks).toEqual([{ offset: 0, value: { seen: 1 } }]);
  await expect(replayHistory(loop, history)).resolves.toMatchObject({ ended: 'continued' });
  expect((await store.list()).length).toBe(before.runs);
  expect(await chunks()).toEqual(before.chunks);
});
