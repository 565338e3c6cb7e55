/**
 * Worker identities (decision 239), with real processes on SQLite and PostgreSQL: a
 * worker SIGKILLed inside a step and started again with the same identity takes its run
 * back at once — the run is done before the dead worker's ten-minute lease would have
 * expired (a time the database wrote, not a race against the clock) — while a second
 * live process asking for the same identity is refused with `IDENTITY_IN_USE` and takes
 * nothing. Bad identities are refused with `INVALID_ARGUMENT`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  memoryWorkflowStore,
  postgresWorkflowStore,
  sqliteWorkflowStore,
  type WorkflowStore,
  worker,
  workflow,
} from '../../../src/workflow/index.ts';
import { nodeChild } from '../../helpers/child-process.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const WAKE_WORKER = join(import.meta.dirname, '..', 'fixtures', 'wake-worker.ts');
const dir = tempDir('workflow-identity');
const postgres = postgresForTests();

/** Far longer than the test: only reclaiming explains the restarted worker finishing the run. */
const LEASE_MS = 600_000;
/** Child processes start slowly on a loaded machine: generous, never a race. */
const TIMEOUT = 300_000;
const blocking = workflow({ id: 'blocking', run: async () => 'done' });

const steps = (log: string) =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { step?: string; pid: number })
        .filter((entry) => entry.step)
    : [];

/** Kills a worker of identity "billing" inside a step, refuses a twin, restarts it. */
async function restartScenario(store: WorkflowStore, place: { db: string; schema?: string }) {
  const log = join(dir, `${place.schema ?? 'sqlite'}.jsonl`);
  const command = { ...place, log, pollMs: 60_000, leaseMs: LEASE_MS, identity: 'billing' };
  // Started first: a SQLite worker in another process is not woken by this process's
  // writes, so with a one-minute poll it must find the run at its first look.
  const { runId } = await blocking.start(undefined, { store });
  const first = nodeChild(WAKE_WORKER, command, { FINO_TEST_BLOCK: '1' });
  await first.ready;
  await expect
    .poll(() => steps(log).map((entry) => entry.step), { timeout: 60_000 })
    .toEqual(['first', 'second']);
  const { leaseOwner: held, leaseExpiresAt } = (await store.get(runId))!;
  expect(held?.startsWith('billing/')).toBe(true);

  // A second live process with the same identity is refused, and takes nothing.
  expect(await nodeChild(WAKE_WORKER, command).done).toEqual({ refused: 'IDENTITY_IN_USE' });
  expect((await store.get(runId))!.leaseOwner).toBe(held);

  first.process.kill('SIGKILL');
  expect(await first.done).toEqual({ killed: 'SIGKILL' });
  const restarted = nodeChild(WAKE_WORKER, command);
  try {
    expect(await blocking.result(runId, { store, timeoutMs: 240_000 })).toBe('done');
    expect((await store.get(runId))!.updatedAt).toBeLessThan(leaseExpiresAt!);
    expect(steps(log).map((entry) => entry.step)).toEqual(['first', 'second', 'second']);
  } finally {
    restarted.process.kill('SIGKILL');
    await restarted.done.catch(() => {});
  }
}

describe('worker identity across restarts', () => {
  it(
    'SQLite: a restarted worker resumes its run without waiting out the lease; a live twin is refused',
    async () => {
      const db = join(dir, 'identity.db');
      const store = sqliteWorkflowStore(db);
      try {
        await restartScenario(store, { db });
      } finally {
        await store.close();
      }
    },
    TIMEOUT,
  );

  it(
    'PostgreSQL: a restarted worker resumes its run without waiting out the lease; a live twin is refused',
    async (ctx) => {
      const server = await postgres();
      if (!server) return ctx.skip();
      const schema = await freshSchema(server.url);
      const store = postgresWorkflowStore(server.url, { schema });
      try {
        await restartScenario(store, { db: server.url, schema });
      } finally {
        await store.close();
      }
    },
    TIMEOUT,
  );
});

describe('worker identity in one process', () => {
  it('a second worker with the same identity is refused until the first stops', async () => {
    const store = memoryWorkflowStore();
    const first = worker({ store, workflows: [blocking], identity: 'one' });
    await first.start();
    const twin = worker({ store, workflows: [blocking], identity: 'one' });
    await expect(twin.start()).rejects.toMatchObject({ code: 'IDENTITY_IN_USE' });
    await first.stop();
    await twin.start();
    await twin.stop();
    await store.close();
  });

  it('refuses an identity that is empty, too long, has a "/" or is not a string', () => {
    const store = memoryWorkflowStore();
    for (const identity of ['', 'x'.repeat(201), 'a/b', 42]) {
      expect(() => worker({ store, workflows: [blocking], identity: identity as string })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
    expect(worker({ store, workflows: [blocking], identity: 'x'.repeat(200) }).id).toMatch(
      /^x{200}\//,
    );
  });
});
