/**
 * Queries and updates on SQLite and PostgreSQL (decisions 224–226): a query answers from
 * the run's state and changes nothing; an update is validated, applied once per update
 * id, returned to its caller, recorded, and applied again at the same wait when the run
 * replays; bad input (a throwing query, a query calling ctx.step, an invalid update,
 * unknown names, a flood) is refused with its code and never ends the run.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  postgresWorkflowStore,
  sqliteWorkflowStore,
  type WorkflowStore,
  worker,
  workflow,
  workflowRuns,
} from '../../../src/workflow/index.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const dir = tempDir('workflow-requests');
const postgres = postgresForTests();
let stepRuns = 0;

const cart = workflow({
  id: 'cart',
  async run(ctx) {
    const items: string[] = [];
    ctx.onQuery('items', () => [...items]);
    ctx.onQuery('boom', () => {
      throw new Error('the query broke');
    });
    ctx.onQuery('sneaky', () => {
      void ctx.step('sneak', () => stepRuns++);
      return items.length;
    });
    ctx.onUpdate(
      'add',
      (item: string) => {
        items.push(item);
        return items.length;
      },
      {
        validate: (item) => {
          if (typeof item !== 'string' || item === '') throw new Error('expected an item name');
        },
      },
    );
    await ctx.step('load', () => stepRuns++);
    await ctx.waitForSignal('checkout');
    items.push('paid');
    return items;
  },
});

type Open = () => Promise<WorkflowStore | undefined>;
const engines: Array<[string, Open]> = [
  ['SQLite', async () => sqliteWorkflowStore(join(dir, `${Math.random()}.db`))],
  [
    'PostgreSQL',
    async () => {
      const pg = await postgres();
      return pg && postgresWorkflowStore(pg.url, { schema: await freshSchema(pg.url) });
    },
  ],
];

/** Runs `body` with a fresh store and a started worker; skips when the engine is missing. */
async function withWorker(
  open: Open,
  skip: () => void,
  body: (store: WorkflowStore) => Promise<void>,
): Promise<void> {
  const store = await open();
  if (!store) return skip();
  const w = worker({ store, workflows: [cart], pollMs: 20, handleSignals: false });
  await w.start();
  try {
    await body(store);
  } finally {
    await w.stop();
    await store.close();
  }
}

for (const [engine, open] of engines) {
  describe(`queries and updates (${engine})`, () => {
    it('a query answers from the state and changes nothing; an update is applied once and replayed', async ({
      skip,
    }) => {
      await withWorker(open, skip, async (store) => {
        const { runId } = await cart.start(undefined, { store });
        const o = { store, timeoutMs: 30_000 };
        expect(await cart.query(runId, 'items', undefined, o)).toEqual([]);
        const before = await store.history(runId);
        const runsBefore = stepRuns;
        expect(await cart.query(runId, 'items', undefined, o)).toEqual([]);
        expect(await store.history(runId)).toEqual(before);
        expect(stepRuns).toBe(runsBefore);

        expect(await cart.update(runId, 'add', 'apple', { ...o, updateId: 'u1' })).toBe(1);
        expect(await cart.update(runId, 'add', 'apple', { ...o, updateId: 'u1' })).toBe(1);
        expect(await cart.update(runId, 'add', 'pear', o)).toBe(2);
        expect(await cart.query(runId, 'items', undefined, o)).toEqual(['apple', 'pear']);
        const updates = (await store.history(runId)).filter((e) => e.kind === 'update');
        expect(updates.map((e) => e.name)).toEqual(['add', 'add']);
        await expect(
          cart.update(runId, 'add', 'plum', { ...o, updateId: 'u1' }),
        ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });

        // Each later execution replays the updates at the wait they were applied at: before it returned.
        await cart.signal({ store, runId, name: 'checkout' });
        expect(await cart.result(runId, o)).toEqual(['apple', 'pear', 'paid']);
        await expect(cart.query(runId, 'items', undefined, o)).rejects.toMatchObject({
          code: 'RUN_FINISHED',
        });
      });
    });

    it('refuses bad queries and updates with their codes, recording nothing, and the run goes on', async ({
      skip,
    }) => {
      await withWorker(open, skip, async (store) => {
        const { runId } = await cart.start(undefined, { store });
        const o = { store, timeoutMs: 30_000 };
        await cart.query(runId, 'items', undefined, o);
        const history = await store.history(runId);
        const runsBefore = stepRuns;
        await expect(cart.query(runId, 'boom', undefined, o)).rejects.toMatchObject({
          code: 'QUERY_FAILED',
          message: expect.stringContaining('query "boom" threw: the query broke'),
        });
        await expect(cart.query(runId, 'sneaky', undefined, o)).rejects.toMatchObject({
          code: 'QUERY_FAILED',
          message: expect.stringContaining('called ctx.step("sneak")'),
        });
        await expect(cart.update(runId, 'add', '', o)).rejects.toMatchObject({
          code: 'UPDATE_REJECTED',
          message: expect.stringContaining('refused by its validator: expected an item name'),
        });
        await expect(cart.query(runId, 'nope', undefined, o)).rejects.toMatchObject({
          code: 'UNKNOWN_QUERY',
          message: expect.stringContaining('it registers "items", "boom", "sneaky"'),
        });
        await expect(workflowRuns(store).update(runId, 'remove', 1, o)).rejects.toMatchObject({
          code: 'UNKNOWN_UPDATE',
        });
        expect(await store.history(runId)).toEqual(history);
        expect(stepRuns).toBe(runsBefore);
        expect(await workflowRuns(store).query(runId, 'items')).toEqual([]);
        await cart.signal({ store, runId, name: 'checkout' });
        expect(await cart.result(runId, o)).toEqual(['paid']);
      });
    });

    it('a flood of updates on one run is bounded: the 101st is refused with UPDATE_QUEUE_FULL', async ({
      skip,
    }) => {
      const store = await open();
      if (!store) return skip();
      try {
        const { runId } = await cart.start(undefined, { store });
        await worker({ store, workflows: [cart] }).drain(); // parks, taking requests
        const sent = await Promise.allSettled(
          Array.from({ length: 100 }, (_, i) =>
            cart.update(runId, 'add', `item-${i}`, { store, timeoutMs: 0, updateId: `f${i}` }),
          ),
        );
        expect(sent.map((s) => s.status === 'rejected' && s.reason.code)).toEqual(
          Array(100).fill('TIMEOUT'),
        );
        await expect(
          cart.update(runId, 'add', 'one-too-many', { store, timeoutMs: 0 }),
        ).rejects.toMatchObject({ code: 'UPDATE_QUEUE_FULL' });
        const w = worker({ store, workflows: [cart], pollMs: 20, handleSignals: false });
        await w.start();
        // Sent again by its id, a queued update is not queued twice: its caller gets its result.
        const again = await cart.update(runId, 'add', 'item-99', { store, updateId: 'f99' });
        const items = (await workflowRuns(store).query(runId, 'items')) as string[];
        expect(new Set(items).size).toBe(100);
        expect(again).toBe(items.indexOf('item-99') + 1);
        expect(await cart.update(runId, 'add', 'last', { store })).toBe(101);
        await w.stop();
      } finally {
        await store.close();
      }
    });
  });
}
