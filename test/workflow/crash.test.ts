/**
 * Crash rules with real processes on SQLite and PostgreSQL: SIGKILL inside and between
 * steps and while a timer waits, a signal consumed once, an agent's completed model calls
 * and tool runs never repeated, 4 workers racing over 500 runs.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { postgresWorkflowStore, sqliteWorkflowStore, workflow } from '../../src/workflow/index.ts';
import { freshSchema } from '../helpers/postgres.ts';
import { postgresForTests } from '../helpers/postgres-for-tests.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import {
  agentCrashScenario,
  child,
  crashScenario,
  raceScenario,
  readLog,
} from './crash-scenario.ts';

const dir = tempDir('workflow-crash');
/** Child processes start slowly on a loaded machine: generous, never a race against the clock. */
const TIMEOUT = 240_000;
/** The same id as the children's workflow: the parent only starts its runs. */
const count = workflow({ id: 'count', run: () => undefined });

describe('workflows across processes (SQLite)', () => {
  it(
    'no completed step runs twice, a timer set before a restart fires after it, a signal is consumed once',
    async () => {
      const db = join(dir, 'crash.db');
      const store = sqliteWorkflowStore(db);
      try {
        await crashScenario(store, { db, log: join(dir, 'crash.jsonl') });
      } finally {
        await store.close();
      }
    },
    TIMEOUT,
  );

  it(
    'an agent inside: a completed model call is never made again, a completed tool never runs again',
    async () => {
      const db = join(dir, 'agent.db');
      const store = sqliteWorkflowStore(db);
      try {
        await agentCrashScenario(store, { db, log: join(dir, 'agent.jsonl') });
      } finally {
        await store.close();
      }
    },
    TIMEOUT,
  );

  it(
    '4 workers racing over 500 runs finish each exactly once',
    async () => {
      const db = join(dir, 'race.db');
      const store = sqliteWorkflowStore(db);
      try {
        await raceScenario(store, { db, log: join(dir, 'race.jsonl') }, count);
      } finally {
        await store.close();
      }
    },
    TIMEOUT,
  );
});

describe('graceful shutdown', () => {
  it(
    'on SIGTERM, a worker lets the step in flight finish, starts nothing new, and releases the run',
    async () => {
      const db = join(dir, 'sigterm.db');
      const log = join(dir, 'sigterm.jsonl');
      const store = sqliteWorkflowStore(db);
      try {
        const slow = workflow({ id: 'slow', run: () => undefined });
        const { runId } = await slow.start(undefined, { store, runId: 'slow-1' });
        const serving = child({ db, log, op: 'serve' });
        while (!readLog(log).some((e) => e.step === 'long-start')) await sleep(20);
        serving.process.kill('SIGTERM');
        expect(await serving.done).toEqual({ killed: 'SIGTERM' });
        expect(readLog(log).map((e) => e.step)).toEqual(['long-start', 'long-end']);
        expect((await store.history(runId)).map((e) => [e.id, e.state])).toEqual([
          ['long', 'done'],
        ]);
        const released = (await store.get(runId))!;
        expect(released.status).toBe('running');
        expect(released.leaseOwner).toBeUndefined(); // another worker may take it at once
        expect(await child({ db, log, op: 'until', runId }).done).toEqual({
          ok: true,
          status: 'done',
        });
        expect(readLog(log).map((e) => e.step)).toEqual(['long-start', 'long-end', 'next']);
      } finally {
        await store.close();
      }
    },
    TIMEOUT,
  );
});

describe('workflows across processes (PostgreSQL)', () => {
  const postgres = postgresForTests();

  it(
    'no completed step runs twice, a timer set before a restart fires after it, a signal is consumed once',
    async ({ skip }) => {
      const pg = await postgres();
      if (!pg) return skip();
      const schema = await freshSchema(pg.url);
      const store = postgresWorkflowStore(pg.url, { schema });
      try {
        await crashScenario(store, { db: pg.url, schema, log: join(dir, 'pg-crash.jsonl') });
      } finally {
        await store.close();
      }
    },
    TIMEOUT,
  );

  it(
    'an agent inside: a completed model call is never made again, a completed tool never runs again',
    async ({ skip }) => {
      const pg = await postgres();
      if (!pg) return skip();
      const schema = await freshSchema(pg.url);
      const store = postgresWorkflowStore(pg.url, { schema });
      try {
        await agentCrashScenario(store, { db: pg.url, schema, log: join(dir, 'pg-agent.jsonl') });
      } finally {
        await store.close();
      }
    },
    TIMEOUT,
  );

  it(
    '4 workers racing over 500 runs finish each exactly once',
    async ({ skip }) => {
      const pg = await postgres();
      if (!pg) return skip();
      const schema = await freshSchema(pg.url);
      const store = postgresWorkflowStore(pg.url, { schema });
      try {
        await raceScenario(store, { db: pg.url, schema, log: join(dir, 'pg-race.jsonl') }, count);
      } finally {
        await store.close();
      }
    },
    TIMEOUT,
  );
});
