/**
 * Continue-as-new across real processes on SQLite and PostgreSQL: worker processes are
 * SIGKILLed at a continue-as-new — before its transaction, while it is in flight, and
 * right after it committed — while the test sends signals to the chain's first run id
 * the whole time. Every signal is taken exactly once, in order, and the chain stays one
 * line of runs: no run continued twice, no successor made twice.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  postgresWorkflowStore,
  type StoredWorkflowRun,
  sqliteWorkflowStore,
  type WorkflowStore,
  worker,
  workflow,
} from '../../../src/workflow/index.ts';
import { nodeChild, PROCESS_TIMEOUT_MS } from '../../helpers/child-process.ts';
import { type CommitFault, commitFaultPool } from '../../helpers/commit-fault-pool.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { collector, ITEMS_PER_RUN } from '../fixtures/continue-collector.ts';

const WORKER = join(import.meta.dirname, '../fixtures/continue-worker.ts');
const dir = tempDir('continue-crash');
const postgres = postgresForTests();

/** Kills at the second continue-as-new of each process, at each point of the switch. */
const KILLS = ['during:2', 'after:2', 'before:2', 'during:2'];

async function killMidContinue(store: WorkflowStore, place: { db: string; schema?: string }) {
  const runId = 'chain';
  await collector.start([], { store, runId });
  const sent: string[] = [];
  let killing = true;
  const sending = (async () => {
    while (killing) {
      const item = `item-${sent.length}`;
      await collector.signal({ store, runId, name: 'item', payload: item }); // always the first id
      sent.push(item);
      await sleep(100); // slower than the chain takes them: no backlog while a worker restarts
    }
  })();
  sending.catch(() => {}); // awaited below; a failure to send fails the test there
  try {
    for (const kill of KILLS) {
      const child = nodeChild(WORKER, { ...place, runId }, { FINO_TEST_KILL_CONTINUE: kill });
      expect(await child.done).toEqual({ killed: 'SIGKILL' });
    }
  } finally {
    killing = false;
    await sending;
  }
  await collector.signal({ store, runId, name: 'item', payload: null });
  expect(await nodeChild(WORKER, { ...place, runId }).done).toEqual({ ok: true });

  expect(await collector.result(runId, { store })).toEqual(sent); // each once, in order
  const runs = await store.list({ workflowId: 'collector', limit: 10_000 });
  expect(runs.length).toBeGreaterThanOrEqual(KILLS.length * 2);
  expect(runs.length).toBe(Math.floor(sent.length / ITEMS_PER_RUN) + 1);
  expect(chainOf(runs, runId)).toHaveLength(runs.length); // one line of runs, none left aside
}

/** The chain from `first` by its links, checking each run continues into exactly one. */
function chainOf(runs: StoredWorkflowRun[], first: string): StoredWorkflowRun[] {
  const byId = new Map(runs.map((run) => [run.runId, run]));
  const successors = runs.filter((run) => run.continuedFrom !== undefined);
  expect(new Set(successors.map((run) => run.continuedFrom)).size).toBe(successors.length);
  const chain: StoredWorkflowRun[] = [];
  for (
    let run = byId.get(first);
    run;
    run = run.continuedTo ? byId.get(run.continuedTo) : undefined
  ) {
    chain.push(run);
    if (run.continuedTo) expect(byId.get(run.continuedTo)?.continuedFrom).toBe(run.runId);
  }
  expect(chain.slice(0, -1).every((run) => run.status === 'continued')).toBe(true);
  expect(chain.at(-1)!.status).toBe('done');
  return chain;
}

describe('continue-as-new with worker processes SIGKILLed mid-switch', () => {
  it(
    'loses no signal and duplicates no run (SQLite)',
    async () => {
      const db = join(dir, 'chain.db');
      const store = sqliteWorkflowStore(db);
      try {
        await killMidContinue(store, { db });
      } finally {
        await store.close();
      }
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'loses no signal and duplicates no run (PostgreSQL)',
    async ({ skip }) => {
      const pg = await postgres();
      if (!pg) return skip();
      const schema = await freshSchema(pg.url);
      const store = postgresWorkflowStore(pg.url, { schema });
      try {
        await killMidContinue(store, { db: pg.url, schema });
      } finally {
        await store.close();
      }
    },
    PROCESS_TIMEOUT_MS,
  );
});

describe('a continue-as-new whose commit outcome is unknown (PostgreSQL)', () => {
  for (const outcome of ['landed', 'lost'] as CommitFault[]) {
    it(`when the commit ${outcome}, the chain goes on with one successor per run`, async ({
      skip,
    }) => {
      const pg = await postgres();
      if (!pg) return skip();
      const schema = await freshSchema(pg.url);
      // Every continue-as-new fails at COMMIT once; its retry recognises its own write.
      let seen = 0;
      const faulty = commitFaultPool(
        pg.url,
        outcome,
        (statements) =>
          statements.some((sql) => sql.includes("status = 'continued'")) && seen++ % 2 === 0,
      );
      const store = postgresWorkflowStore(faulty.pool, { schema });
      const hop = workflow({
        id: 'hop',
        run: (ctx, n: number) => (n >= 3 ? ctx.runId : ctx.continueAsNew(n + 1)),
      });
      const w = worker({ store, workflows: [hop] });
      try {
        const { runId } = await hop.start(0, { store });
        const ends: Record<string, string> = {};
        while ((await store.latestInChain(runId))?.status !== 'done') {
          Object.assign(ends, (await w.drain()).runs);
          await sleep(20); // a young run's successor is due 100 ms after it
        }
        const runs = await store.list({ workflowId: 'hop' });
        expect(runs).toHaveLength(4);
        const chain = chainOf(runs, runId);
        expect(await hop.result(runId, { store })).toBe(chain.at(-1)!.runId);
        // The worker whose commit failed learnt, on its retry, that the switch was its own.
        expect(chain.map((run) => ends[run.runId])).toEqual([
          'continued',
          'continued',
          'continued',
          'done',
        ]);
        expect(faulty.faults).toBe(3);
      } finally {
        await store.close();
        await faulty.end();
      }
    }, 60_000);
  }
});
