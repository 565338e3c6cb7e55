/**
 * Schedules across real processes, on SQLite and PostgreSQL: a worker SIGKILLed inside
 * a firing (its tick runs inserted and the schedule advanced, not committed) leaves no
 * trace, one killed at its second firing keeps only the first; then four workers racing
 * from one gate start every remaining tick once — no tick run twice or lost.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  postgresWorkflowStore,
  schedules,
  sqliteWorkflowStore,
  type WorkflowStore,
} from '../../src/workflow/index.ts';
import { TICKS_PER_FIRING } from '../../src/workflow/sql/run-schedules.ts';
import { nodeChild } from '../helpers/child-process.ts';
import { freshSchema } from '../helpers/postgres.ts';
import { postgresForTests } from '../helpers/postgres-for-tests.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { readLog } from './crash-scenario.ts';

const dir = tempDir('workflow-schedules-crash');
const CHILD = join(import.meta.dirname, 'fixtures', 'schedule-worker.ts');
const TIMEOUT = 240_000;
/** Ten minutes between ticks: the next tick stays ten minutes away however slowly the processes start. */
const EVERY = 600_000;
const IDS = ['a', 'b', 'c'];

interface Place {
  db: string;
  schema?: string;
  log: string;
}

const child = (place: Place, extra: object = {}, env: Record<string, string> = {}) =>
  nodeChild(CHILD, { ...place, ...extra }, env);

async function killedAtTicksScenario(store: WorkflowStore, place: Place) {
  // 3 schedules with 150 missed ticks each: 450 runs, more than one firing starts (256).
  const startAt = Date.now() - 149 * EVERY - 1_000;
  for (const id of IDS) {
    await schedules({ store }).create({
      id,
      workflow: 'tick',
      every: EVERY,
      startAt,
      catchUp: 'all',
      maxCatchUp: 150,
    });
  }
  const runs = async () => store.list({ workflowId: 'tick', limit: 10_000 });

  // Killed inside its first firing: nothing of it is left.
  expect(await child(place, {}, { FINO_TEST_KILL_AT_FIRING: '1' }).done).toEqual({
    killed: 'SIGKILL',
  });
  expect(await runs()).toEqual([]);
  for (const id of IDS) expect((await schedules({ store }).get(id)).ticksStarted).toBe(0);

  // Killed inside its second firing: the first firing's runs stay, the second's are undone.
  expect(await child(place, {}, { FINO_TEST_KILL_AT_FIRING: '2' }).done).toEqual({
    killed: 'SIGKILL',
  });
  expect((await runs()).length).toBe(TICKS_PER_FIRING);
  expect(readLog(place.log)).toEqual([]); // it fired, and was killed before it ran any

  // Four workers race from one gate over the rest of the ticks and all the runs.
  const gate = `${place.log}.go`;
  const racers = [1, 2, 3, 4].map(() => child(place, { gate }));
  await Promise.all(racers.map((racer) => racer.ready));
  writeFileSync(gate, '');
  for (const answer of await Promise.all(racers.map((racer) => racer.done)))
    expect(answer.ok).toBe(true);

  const all = await runs();
  const keys = all.map((run) => run.key!);
  const expected = IDS.flatMap((id) =>
    Array.from(
      { length: 150 },
      (_, k) => `schedule:${id}:${new Date(startAt + k * EVERY).toISOString()}`,
    ),
  );
  expect(keys.length).toBe(450); // none doubled
  expect(new Set(keys)).toEqual(new Set(expected)); // none lost
  expect(all.every((run) => run.status === 'done')).toBe(true);
  const work = readLog(place.log);
  expect(work.length).toBe(450); // each tick's run did its work once
  expect(new Set(work.map((e) => e.run)).size).toBe(450);
  expect(new Set(work.map((e) => e.pid)).size).toBeGreaterThan(1); // the racers shared them
  for (const id of IDS) {
    expect(await schedules({ store }).get(id)).toMatchObject({ ticksStarted: 150, ticksMissed: 0 });
  }
}

describe('schedules across processes (SQLite)', () => {
  it(
    'killed at a tick, then four racing workers: each tick one run, none lost',
    async () => {
      const db = join(dir, 'ticks.db');
      const store = sqliteWorkflowStore(db);
      try {
        await killedAtTicksScenario(store, { db, log: join(dir, 'ticks.jsonl') });
      } finally {
        await store.close();
      }
    },
    TIMEOUT,
  );
});

describe('schedules across processes (PostgreSQL)', () => {
  const postgres = postgresForTests();
  it(
    'killed at a tick, then four racing workers: each tick one run, none lost',
    async ({ skip }) => {
      const pg = await postgres();
      if (!pg) return skip();
      const schema = await freshSchema(pg.url);
      const store = postgresWorkflowStore(pg.url, { schema });
      try {
        await killedAtTicksScenario(store, {
          db: pg.url,
          schema,
          log: join(dir, 'pg-ticks.jsonl'),
        });
      } finally {
        await store.close();
      }
    },
    TIMEOUT,
  );
});
