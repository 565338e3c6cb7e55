/**
 * Crash rules with real processes on SQLite and PostgreSQL: SIGKILL inside and between
 * steps and while a timer waits, a signal consumed once, an agent's completed model calls
 * and tool runs never repeated, 4 workers racing over 500 runs.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  postgresWorkflowStore,
  sqliteWorkflowStore,
  type WorkflowStore,
  workflow,
} from '../../src/workflow/index.ts';
import { freshSchema } from '../helpers/postgres.ts';
import { postgresForTests } from '../helpers/postgres-for-tests.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import {
  agentCrashScenario,
  child,
  crashScenario,
  type Place,
  raceScenario,
  readLog,
} from './crash-scenario.ts';

const dir = tempDir('workflow-crash');
/** Child processes start slowly on a loaded machine: generous, never a race against the clock. */
const TIMEOUT = 240_000;
/** The same id as the children's workflow: the parent only starts its runs. */
const count = workflow({ id: 'count', run: () => undefined });

/** The scenarios each engine runs, on a fresh store: title, file name, scenario. */
const scenarios: Array<[string, string, (store: WorkflowStore, place: Place) => Promise<void>]> = [
  [
    'no completed step runs twice, a timer set before a restart fires after it, a signal is consumed once',
    'crash',
    crashScenario,
  ],
  [
    'an agent inside: a completed model call is never made again, a completed tool never runs again',
    'agent',
    agentCrashScenario,
  ],
  [
    '4 workers racing over 500 runs finish each exactly once',
    'race',
    (store, place) => raceScenario(store, place, count),
  ],
];

describe('workflows across processes (SQLite)', () => {
  for (const [title, name, scenario] of scenarios) {
    it(
      title,
      async () => {
        const db = join(dir, `${name}.db`);
        const store = sqliteWorkflowStore(db);
        try {
          await scenario(store, { db, log: join(dir, `${name}.jsonl`) });
        } finally {
          await store.close();
        }
      },
      TIMEOUT,
    );
  }
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

  for (const [title, name, scenario] of scenarios) {
    it(
      title,
      async ({ skip }) => {
        const pg = await postgres();
        if (!pg) return skip();
        const schema = await freshSchema(pg.url);
        const store = postgresWorkflowStore(pg.url, { schema });
        try {
          await scenario(store, { db: pg.url, schema, log: join(dir, `pg-${name}.jsonl`) });
        } finally {
          await store.close();
        }
      },
      TIMEOUT,
    );
  }
});
