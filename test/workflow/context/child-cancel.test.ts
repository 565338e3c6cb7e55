/**
 * Cancellation reaches children (decision 232), on SQLite and PostgreSQL: a cancelled
 * parent cancels its `cancel` children (their finally steps run, grandchildren too) and
 * waits for them to end; `abandon` children run on; `wait` children end on their own
 * before the parent does; a child cancelled alone throws `CHILD_CANCELLED` in its parent.
 */
import { describe, expect, it } from 'vitest';
import {
  type ChildCancelPolicy,
  type WorkflowError,
  type WorkflowStore,
  worker,
  workflow,
} from '../../../src/workflow/index.ts';
import { eachWorkflowStore } from '../../helpers/workflow-store.ts';

const cleaned: string[] = [];

const task = workflow({
  id: 'task',
  async run(ctx, name: string) {
    try {
      await ctx.step('begin', () => name);
      return await ctx.waitForSignal<string>('go');
    } finally {
      await ctx.step('cleanup', () => cleaned.push(name));
    }
  },
});
const nested = workflow({
  id: 'nested',
  async run(ctx) {
    try {
      return await ctx.child(task, 'grandchild', { id: 'g' });
    } finally {
      await ctx.step('cleanup', () => cleaned.push('nested'));
    }
  },
});
const parent = workflow({
  id: 'parent',
  async run(ctx, policy: ChildCancelPolicy) {
    try {
      return await Promise.all([
        ctx.child(task, policy, { id: 'c', onParentCancel: policy }),
        ctx.child(nested, undefined, { id: 'n' }),
      ]);
    } catch (error) {
      await ctx.step('saw', () => (error as WorkflowError).code);
      throw error;
    } finally {
      await ctx.step('cleanup', () => cleaned.push('parent'));
    }
  },
});
const all = [parent, nested, task];

async function cancelledParent(store: WorkflowStore, policy: ChildCancelPolicy) {
  cleaned.length = 0;
  const w = worker({ store, workflows: all });
  await parent.start(policy, { store, runId: 'p' });
  await w.drain();
  expect((await store.list()).map((run) => [run.runId, run.status])).toEqual([
    ['p', 'waiting'],
    ['p/c', 'waiting'],
    ['p/n', 'waiting'],
    ['p/n/g', 'waiting'],
  ]);
  await parent.cancel('p', { store, by: 'ops', note: 'wrong order' });
  await w.drain();
  return w;
}

describe.each(eachWorkflowStore('child-cancel'))(
  'cancellation reaches children (%s)',
  (_name, open) => {
    it('cancel (the default): children and grandchildren unwind through their finally steps, then the parent', async ({
      skip,
    }) => {
      const store = (await open()) ?? skip();
      await cancelledParent(store, 'cancel');
      const status = Object.fromEntries((await store.list()).map((run) => [run.runId, run.status]));
      expect(status).toEqual({
        p: 'cancelled',
        'p/c': 'cancelled',
        'p/n': 'cancelled',
        'p/n/g': 'cancelled',
      });
      expect(cleaned.slice(-1)).toEqual(['parent']); // the parent's cleanup after its children's
      expect(cleaned.sort()).toEqual(['cancel', 'grandchild', 'nested', 'parent']);
      const audit = await store.audit('p/n/g');
      expect(audit).toMatchObject([
        { action: 'cancel', by: 'ops', note: 'its parent run "p/n" was cancelled: wrong order' },
      ]);
      const saw = (await store.history('p')).find((entry) => entry.id === 'saw');
      expect(saw?.value).toBe('"CANCELLED"');
    });

    it('abandon: the child runs on, the parent does not wait for it', async ({ skip }) => {
      const store = (await open()) ?? skip();
      await cancelledParent(store, 'abandon');
      expect((await store.get('p'))!.status).toBe('cancelled');
      expect((await store.get('p/c'))!).toMatchObject({
        status: 'waiting',
        cancelRequested: false,
      });
      expect(cleaned).not.toContain('abandon');
      await task.signal({ store, runId: 'p/c', name: 'go', payload: 'later' });
      await worker({ store, workflows: all }).drain();
      expect(await task.result('p/c', { store })).toBe('later');
    });

    it('wait: the child is not cancelled; the parent ends once it has', async ({ skip }) => {
      const store = (await open()) ?? skip();
      const w = await cancelledParent(store, 'wait');
      expect((await store.get('p/n'))!.status).toBe('cancelled');
      expect((await store.get('p/c'))!).toMatchObject({
        status: 'waiting',
        cancelRequested: false,
      });
      const waiting = (await store.get('p'))!;
      expect(waiting).toMatchObject({
        status: 'waiting',
        waiting: { children: ['p/c'], afterCancel: true },
      });
      await task.signal({ store, runId: 'p/c', name: 'go', payload: 'done' });
      await w.drain();
      expect((await store.get('p/c'))!.status).toBe('done');
      expect((await store.get('p'))!.status).toBe('cancelled');
      expect(cleaned.at(-1)).toBe('parent');
    });

    it('a child cancelled alone throws CHILD_CANCELLED in its parent, which is not cancelled', async ({
      skip,
    }) => {
      const store = (await open()) ?? skip();
      const w = worker({ store, workflows: all });
      await parent.start('cancel', { store, runId: 'p' });
      await w.drain();
      await task.cancel('p/c', { store });
      await w.drain();
      const run = await parent.get('p', { store });
      expect(run.status).toBe('error');
      expect(run.error).toMatchObject({
        code: 'CHILD_CANCELLED',
        message: 'child workflow "task" (c) was cancelled',
      });
      expect((await store.get('p/n'))!.status).toBe('waiting'); // not cancelled: the parent failed
    });

    it("cancels a child created after the cancellation reached the store, on the parent's next replay", async ({
      skip,
    }) => {
      const store = (await open()) ?? skip();
      cleaned.length = 0;
      // The parent is cancelled between writing its child's entry and creating the child:
      // the store's cancellation of its children finds none.
      const racing: WorkflowStore = {
        ...store,
        async create(run) {
          if (run.parentRunId === 'p' && run.runId === 'p/c')
            await store.cancel('p', { by: 'ops' });
          return store.create(run);
        },
      };
      const only = workflow({
        id: 'only',
        run: (ctx) => ctx.child(task, 'late', { id: 'c' }),
      });
      await only.start(undefined, { store, runId: 'p' });
      await worker({ store: racing, workflows: [only, task] }).drain();
      expect((await store.get('p/c'))!.status).toBe('cancelled');
      expect((await store.get('p'))!.status).toBe('cancelled');
      expect(cleaned).toEqual(['late']);
      expect(await store.audit('p/c')).toMatchObject([
        { action: 'cancel', note: 'its parent run "p" was cancelled' },
      ]);
    });

    it('refuses an unknown policy, naming the allowed ones', async ({ skip }) => {
      const store = (await open()) ?? skip();
      const bad = workflow({
        id: 'bad',
        run: (ctx) => ctx.child(task, 'x', { onParentCancel: 'kill' as ChildCancelPolicy }),
      });
      const { runId } = await bad.start(undefined, { store });
      await worker({ store, workflows: [bad, task] }).drain();
      expect((await bad.get(runId, { store })).error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message:
          'ctx.child: onParentCancel: expected "cancel", "abandon" or "wait", received "kill"',
      });
    });
  },
);
