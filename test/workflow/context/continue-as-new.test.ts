/**
 * ctx.continueAsNew on SQLite and PostgreSQL: a run ends `continued` and its successor
 * starts with the new input in one transaction; get() shows the chain, result() follows
 * it, signals and cancels sent to any run of the chain reach the live one (queued ones
 * move), each run's history stays bounded, old histories are pruned, a tight loop is
 * slowed to 10 runs a second, and bad input is refused clearly.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { v } from '../../../src/validate/index.ts';
import {
  type AnyWorkflow,
  postgresWorkflowStore,
  sqliteWorkflowStore,
  type WorkflowError,
  type WorkflowStore,
  worker,
  workflow,
} from '../../../src/workflow/index.ts';
import { MIN_CHAIN_RUN_MS } from '../../../src/workflow/sql/run-continue.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const dir = tempDir('continue-as-new');
const postgres = postgresForTests();

/** Counts to `until`, three steps per run, then continues as new with the count so far. */
const counter = workflow({
  id: 'counter',
  input: v.object({ at: v.number(), until: v.number() }),
  maxHistoryEntries: 4,
  keepContinuedHistories: 2,
  async run(ctx, { at, until }) {
    let n = at;
    for (let i = 0; i < 3 && n < until; i++) n = await ctx.step(`add:${i}`, () => n + 1);
    if (n < until) await ctx.continueAsNew({ at: n, until });
    return { counted: n, runId: ctx.runId };
  },
});

/** Takes `item` signals, two per run, until it has `expected` of them. */
const collector = workflow({
  id: 'collector',
  signals: { item: v.string() },
  async run(ctx, { items, expected }: { items: string[]; expected: number }) {
    const taken = [...items];
    for (let i = 0; i < 2; i++) taken.push(await ctx.waitForSignal<string>('item'));
    if (taken.length >= expected) return taken;
    return ctx.continueAsNew({ items: taken, expected });
  },
});

type Engine = [string, (name: string) => Promise<WorkflowStore | undefined>];
const engines: Engine[] = [
  ['SQLite', async (name) => sqliteWorkflowStore(join(dir, `${name}.db`))],
  [
    'PostgreSQL',
    async () => {
      const pg = await postgres();
      return pg && postgresWorkflowStore(pg.url, { schema: await freshSchema(pg.url) });
    },
  ],
];

/** Drives runs in the background while `act` runs. */
async function withWorker<T>(
  store: WorkflowStore,
  workflows: AnyWorkflow[],
  act: () => Promise<T>,
): Promise<T> {
  const w = worker({ store, workflows, pollMs: 20, handleSignals: false });
  await w.start();
  try {
    return await act();
  } finally {
    await w.stop();
  }
}

for (const [engine, open] of engines) {
  describe(`ctx.continueAsNew (${engine})`, () => {
    const withStore =
      (name: string, test: (store: WorkflowStore) => Promise<void>) =>
      async ({ skip }: { skip: () => void }) => {
        const store = await open(name);
        if (!store) return skip();
        try {
          await test(store);
        } finally {
          await store.close();
        }
      };

    it(
      'continues a run under its history cap; get() shows the chain, result() follows it, old histories are pruned',
      withStore('chain', async (store) => {
        const { runId } = await counter.start({ at: 0, until: 13 }, { store, key: 'count-13' });
        const out = await withWorker(store, [counter], () =>
          counter.result(runId, { store, timeoutMs: 60_000 }),
        );
        expect(out.counted).toBe(13);
        const runs = await store.list({ workflowId: 'counter' });
        expect(runs.map((run) => run.status)).toEqual([
          'continued',
          'continued',
          'continued',
          'continued',
          'done',
        ]);
        expect(out.runId).toBe(runs[4].runId);
        expect(await counter.get(runId, { store })).toMatchObject({
          status: 'continued',
          key: 'count-13',
          input: { at: 0, until: 13 }, // kept with the key
          continuedTo: runs[1].runId,
          chain: { first: runId, latest: runs[4].runId },
        });
        expect(await counter.get(runs[3].runId, { store })).toMatchObject({
          continuedFrom: runs[2].runId,
          continuedTo: runs[4].runId,
          input: { at: 9, until: 13 },
          chain: { first: runId, latest: runs[4].runId },
        });
        // Each run's own history: at most three steps; those beyond the last 2 ended runs pruned.
        const histories = await Promise.all(runs.map((run) => store.history(run.runId)));
        expect(histories.map((h) => h.length)).toEqual([0, 0, 3, 3, 1]);
        expect((await counter.get(runs[1].runId, { store })).input).toBeUndefined();
        // The key still names the chain: starting again returns its first run.
        expect(await counter.start({ at: 0, until: 13 }, { store, key: 'count-13' })).toEqual({
          runId,
          created: false,
          status: 'continued',
        });
      }),
      60_000,
    );

    it(
      'delivers signals sent to any run of the chain, queued ones moved across the switch, none lost',
      withStore('signals', async (store) => {
        const { runId } = await collector.start({ items: [], expected: 12 }, { store });
        const sent = Array.from({ length: 12 }, (_, i) => `item-${i}`);
        // Queued before any worker runs: the first run takes two, the rest move on.
        for (const item of sent.slice(0, 5)) {
          await collector.signal({ store, runId, name: 'item', payload: item });
        }
        const items = await withWorker(store, [collector], async () => {
          while ((await store.get(runId))?.status !== 'continued') await sleep(10);
          for (const item of sent.slice(5)) {
            await collector.signal({ store, runId, name: 'item', payload: item }); // always the first id
            await sleep(5);
          }
          return collector.result(runId, { store, timeoutMs: 60_000 });
        });
        expect(items).toEqual(sent);
        const runs = await store.list({ workflowId: 'collector' });
        expect(runs.at(-1)!.status).toBe('done');
        expect(runs.slice(0, -1).every((run) => run.status === 'continued')).toBe(true);
      }),
      60_000,
    );

    it(
      'cancels the live run when a cancel names the first run of the chain',
      withStore('cancel', async (store) => {
        const { runId } = await collector.start({ items: [], expected: 10 }, { store });
        await collector.signal({ store, runId, name: 'item', payload: 'a' });
        await collector.signal({ store, runId, name: 'item', payload: 'b' });
        await worker({ store, workflows: [collector] }).drain();
        const first = await collector.get(runId, { store });
        expect(first.status).toBe('continued');
        const cancelled = await collector.cancel(runId, { store, by: 'ana' });
        expect(cancelled.runId).toBe(first.continuedTo);
        expect(cancelled.cancelRequested).toBe(true);
        await worker({ store, workflows: [collector] }).drain();
        await expect(collector.result(runId, { store })).rejects.toMatchObject({
          code: 'CANCELLED',
        });
      }),
      60_000,
    );

    it(
      `slows a tight loop to one run per ${MIN_CHAIN_RUN_MS} ms of a chain`,
      withStore('tight', async (store) => {
        const spin = workflow({
          id: 'spin',
          run: (ctx, n: number) => (n >= 5 ? n : ctx.continueAsNew(n + 1)),
        });
        const { runId } = await spin.start(0, { store });
        expect(await withWorker(store, [spin], () => spin.result(runId, { store }))).toBe(5);
        const runs = await store.list({ workflowId: 'spin' });
        expect(runs).toHaveLength(6);
        for (let i = 1; i < runs.length; i++) {
          expect(runs[i].updatedAt - runs[i - 1].createdAt).toBeGreaterThanOrEqual(
            MIN_CHAIN_RUN_MS,
          );
        }
      }),
      60_000,
    );

    it(
      'refuses input that is not JSON or too large in the code, and input the schema refuses at the switch',
      withStore('bad-input', async (store) => {
        const bad = workflow({
          id: 'bad',
          input: v.object({ kind: v.string() }),
          maxValueBytes: 64,
          async run(ctx, { kind }) {
            if (kind === 'date') await ctx.continueAsNew({ kind, at: new Date(0) });
            if (kind === 'large') {
              try {
                await ctx.continueAsNew({ kind: 'x'.repeat(100) });
              } catch (error) {
                return (error as WorkflowError).code;
              }
            }
            return ctx.continueAsNew({ kind: 42 });
          },
        });
        const date = await bad.start({ kind: 'date' }, { store });
        const large = await bad.start({ kind: 'large' }, { store });
        const schema = await bad.start({ kind: 'schema' }, { store });
        await worker({ store, workflows: [bad] }).drain();
        expect((await bad.get(date.runId, { store })).error).toMatchObject({
          code: 'NOT_JSON',
          message: expect.stringContaining('the input of ctx.continueAsNew must be JSON'),
        });
        expect(await bad.result(large.runId, { store })).toBe('TOO_LARGE');
        expect((await bad.get(schema.runId, { store })).error).toMatchObject({
          code: 'INVALID_INPUT',
          message: expect.stringContaining(
            'the input of workflow "bad" (ctx.continueAsNew) does not match its schema',
          ),
        });
        expect(await store.list({ workflowId: 'bad' })).toHaveLength(3); // no successor made
      }),
      60_000,
    );

    it(
      'lets a parent wait for a child that continues as new, until its chain ends',
      withStore('child', async (store) => {
        const parent = workflow({
          id: 'parent',
          run: (ctx) => ctx.child(counter, { at: 0, until: 7 }, { id: 'count' }),
        });
        const { runId } = await parent.start(undefined, { store });
        const out = await withWorker(store, [parent, counter], () =>
          parent.result(runId, { store, timeoutMs: 60_000 }),
        );
        expect(out.counted).toBe(7);
        expect(out.runId).not.toBe(`${runId}/count`);
      }),
      60_000,
    );
  });
}
