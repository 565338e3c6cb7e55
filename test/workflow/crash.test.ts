/**
 * Crash rules with real processes on SQLite and PostgreSQL: SIGKILL inside and between
 * steps and while a timer waits, a signal consumed once, 4 workers racing over 500 runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { postgresWorkflowStore, sqliteWorkflowStore, workflow } from '../../src/workflow/index.ts';
import { freshSchema, type PostgresServer, startPostgres } from '../helpers/postgres.ts';
import { crashScenario, raceScenario } from './crash-scenario.ts';

const dir = mkdtempSync(join(tmpdir(), 'fino-workflow-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
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

describe('workflows across processes (PostgreSQL)', () => {
  let pg: PostgresServer | undefined;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
  });

  it(
    'no completed step runs twice, a timer set before a restart fires after it, a signal is consumed once',
    async ({ skip }) => {
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
    '4 workers racing over 500 runs finish each exactly once',
    async ({ skip }) => {
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
