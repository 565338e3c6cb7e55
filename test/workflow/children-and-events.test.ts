/**
 * Child workflows and events out: a child is started once however often its parent
 * replays, its end wakes the parent, its failure reaches the parent; emitted events are
 * saved once and readable while the run goes on.
 */
import { describe, expect, it } from 'vitest';
import { worker, workflow } from '../../src/workflow/index.ts';
import { memoryStorePerTest } from '../helpers/workflow-store.ts';

const fresh = memoryStorePerTest();

describe('ctx.child', () => {
  it('starts a child once, waits for it, and returns its output', async () => {
    const store = fresh();
    let childRuns = 0;
    const pack = workflow({
      id: 'pack',
      async run(ctx, item: string) {
        childRuns++;
        await ctx.waitForSignal('packed');
        return `${item} packed`;
      },
    });
    const order = workflow({
      id: 'order',
      async run(ctx) {
        const packed = await ctx.child(pack, 'shoes');
        return { packed };
      },
    });
    const w = worker({ store, workflows: [order, pack] });
    const { runId } = await order.start(undefined, { store });
    await w.drain();
    await w.drain(); // replays nothing new: the child is not started twice
    const parent = await order.get(runId, { store });
    expect(parent.waitingOn?.children).toEqual([`${runId}/$child:pack`]);
    expect((await pack.list({ store })).map((r) => r.runId)).toEqual([`${runId}/$child:pack`]);
    await pack.signal({ store, runId: `${runId}/$child:pack`, name: 'packed' });
    await w.drain(); // the child ends, which wakes the parent
    expect(await order.result(runId, { store })).toEqual({ packed: 'shoes packed' });
    expect(childRuns).toBe(2); // the child's own replay after its signal
  });

  it("throws a child's failure in the parent as STEP_FAILED", async () => {
    const store = fresh();
    const broken = workflow({
      id: 'broken',
      run: () => {
        throw new Error('no stock');
      },
    });
    const parent = workflow({
      id: 'parent',
      async run(ctx) {
        try {
          await ctx.child(broken, undefined);
        } catch (error) {
          return (error as Error).message;
        }
      },
    });
    const { runId } = await parent.start(undefined, { store });
    await worker({ store, workflows: [parent, broken] }).drain();
    expect(await parent.result(runId, { store })).toBe(
      'child workflow "broken" ($child:broken) failed: no stock',
    );
  });
});

describe('ctx.emit', () => {
  it('emits events once, readable while the run waits', async () => {
    const store = fresh();
    const flow = workflow({
      id: 'progress',
      async run(ctx) {
        await ctx.emit('stage', 'packed');
        await ctx.waitForSignal('go');
        await ctx.emit('stage', 'shipped');
      },
    });
    const w = worker({ store, workflows: [flow] });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    expect((await flow.events(runId, { store })).map((e) => [e.name, e.value])).toEqual([
      ['stage', 'packed'],
    ]);
    await flow.signal({ store, runId, name: 'go' });
    await w.drain();
    expect((await flow.events(runId, { store })).map((e) => [e.name, e.value])).toEqual([
      ['stage', 'packed'],
      ['stage', 'shipped'],
    ]);
  });
});
