/**
 * Wake-ups (decision 238): a worker polling only once a minute picks up a run started,
 * signalled or decided well within that minute — in one process on the memory and
 * SQLite stores, from another process on PostgreSQL (`LISTEN/NOTIFY`), and again after
 * the PostgreSQL server restarted under the listening connection. No assertion is a
 * race against the clock: only a wake-up explains a pickup before the minute's poll.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  memoryWorkflowStore,
  postgresWorkflowStore,
  sqliteWorkflowStore,
  type WorkflowStore,
  worker,
  workflow,
} from '../../../src/workflow/index.ts';
import { nodeChild, PROCESS_TIMEOUT_MS } from '../../helpers/child-process.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const WAKE_WORKER = join(import.meta.dirname, '..', 'fixtures', 'wake-worker.ts');
const dir = tempDir('workflow-wakeups');
const postgres = postgresForTests();

/** The worker's only poll after its first look comes a minute later. */
const POLL_MS = 60_000;
/** Far under the poll: a run done within it was woken (generous for a loaded machine). */
const WOKEN_WITHIN_MS = 20_000;

const quick = workflow({ id: 'quick', run: async (_ctx, n: number) => n });
const signalled = workflow({
  id: 'signalled',
  run: async (ctx) => ctx.waitForSignal<string>('go'),
});
const asked = workflow({
  id: 'asked',
  async run(ctx, generation: number) {
    let count = 0;
    ctx.onUpdate('bump', () => ++count);
    await ctx.waitForSignal('next');
    return generation === 0 ? ctx.continueAsNew(1) : count;
  },
});

/** Starts `n` runs one after another, each done well before the worker's next poll. */
async function startedRunsAreWoken(store: WorkflowStore, n: number) {
  for (let i = 0; i < n; i++) {
    const { runId } = await quick.start(i, { store });
    expect(await quick.result(runId, { store, timeoutMs: WOKEN_WITHIN_MS })).toBe(i);
  }
}

describe('wake-ups in one process', () => {
  for (const [name, open] of [
    ['memory', () => memoryWorkflowStore()],
    ['SQLite', () => sqliteWorkflowStore(join(dir, 'one-process.db'))],
  ] as const) {
    it(`${name}: a started run, a signal, a successor and an update wake a worker that polls once a minute`, async () => {
      const store = open();
      const w = worker({ store, workflows: [quick, signalled, asked], pollMs: POLL_MS });
      await w.start();
      try {
        await startedRunsAreWoken(store, 3);
        const { runId } = await signalled.start(undefined, { store });
        await expect.poll(async () => (await store.get(runId))?.status).toBe('waiting');
        await signalled.signal({ store, runId, name: 'go', payload: 'now' });
        expect(await signalled.result(runId, { store, timeoutMs: WOKEN_WITHIN_MS })).toBe('now');
        const chain = await asked.start(0, { store });
        await asked.signal({ store, runId: chain.runId, name: 'next' }); // woken: continues as new
        const successor = async () => (await asked.get(chain.runId, { store })).chain?.latest;
        await expect.poll(successor).not.toBe(undefined);
        await expect
          .poll(async () => (await store.get((await successor())!))?.status)
          .toBe('waiting');
        await sleep(300); // the worker is idle in its minute's pause
        const bump = { store, timeoutMs: WOKEN_WITHIN_MS }; // only a wake-up answers in time
        expect(await asked.update(chain.runId, 'bump', undefined, bump)).toBe(1);
      } finally {
        await w.stop();
        await store.close();
      }
    }, 60_000);
  }
});

describe('wake-ups across processes (PostgreSQL LISTEN/NOTIFY)', () => {
  it(
    'a worker process that polls once a minute picks up runs started by another process',
    async (ctx) => {
      const server = await postgres();
      if (!server) return ctx.skip();
      const schema = await freshSchema(server.url);
      const store = postgresWorkflowStore(server.url, { schema });
      const log = join(dir, 'pg-wake.jsonl');
      const child = nodeChild(WAKE_WORKER, {
        db: server.url,
        schema,
        log,
        pollMs: POLL_MS,
        leaseMs: 30_000,
      });
      try {
        await child.ready;
        await startedRunsAreWoken(store, 4);
      } finally {
        child.process.kill('SIGKILL');
        await child.done.catch(() => {});
        await store.close();
      }
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'after the server restarts under it, the worker listens again: runs are still woken',
    async (ctx) => {
      const server = await postgres();
      if (!server?.faults) return ctx.skip();
      const schema = await freshSchema(server.url);
      const store = postgresWorkflowStore(server.url, { schema });
      const w = worker({
        store,
        workflows: [quick],
        pollMs: POLL_MS,
        onError: () => {}, // the outage's failed looks
      });
      await w.start();
      try {
        await startedRunsAreWoken(store, 2);
        await server.faults.restart();
        await startedRunsAreWoken(store, 3);
      } finally {
        await w.stop();
        await store.close();
      }
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'while the LISTEN connection keeps being killed, polling still finds every run',
    async (ctx) => {
      const server = await postgres();
      if (!server) return ctx.skip();
      const schema = await freshSchema(server.url);
      const store = postgresWorkflowStore(server.url, { schema });
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      const w = worker({ store, workflows: [quick], pollMs: 200 });
      await w.start();
      let killing = true;
      const killer = (async () => {
        while (killing) {
          await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`,
          );
          await sleep(20);
        }
      })();
      try {
        const runIds = [];
        for (let i = 0; i < 10; i++) runIds.push((await quick.start(i, { store })).runId);
        for (const [i, runId] of runIds.entries()) {
          expect(await quick.result(runId, { store, timeoutMs: 30_000 })).toBe(i);
        }
      } finally {
        killing = false;
        await killer;
        await admin.end();
        await w.stop();
        await store.close();
      }
    },
    PROCESS_TIMEOUT_MS,
  );
});
