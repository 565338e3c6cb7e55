/**
 * Updates across real worker processes SIGKILLed mid-update, on SQLite and PostgreSQL:
 * killed inside the handler (before the update is recorded) and right after its answer
 * was committed. No update is applied twice, and each caller still gets its result once
 * another worker has processed the run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  postgresWorkflowStore,
  sqliteWorkflowStore,
  type WorkflowStore,
  workflow,
} from '../../../src/workflow/index.ts';
import { nodeChild, PROCESS_TIMEOUT_MS } from '../../helpers/child-process.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const WORKER = join(import.meta.dirname, '..', 'fixtures', 'update-worker.ts');
const dir = tempDir('workflow-update-crash');
const postgres = postgresForTests();
/** The children's workflow, by id: the test only starts, updates and queries its runs. */
const counter = workflow({ id: 'counter', run: () => 0 });

/** The update handler applications the children logged (the counts they reached), by process. */
const applied = (log: string) =>
  readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { applied: number; pid: number });

async function scenario(store: WorkflowStore, place: { db: string; schema?: string; log: string }) {
  const serve = (env: Record<string, string> = {}) =>
    nodeChild(WORKER, { ...place, leaseMs: 600 }, env);
  const o = { store, timeoutMs: 60_000 };
  const { runId } = await counter.start(undefined, { store });
  // 1. Killed inside the second update's handler, before it was recorded.
  const first = serve({ FINO_TEST_KILL_IN_UPDATE: '2' });
  await first.ready;
  expect(await counter.update(runId, 'add', 1, { ...o, updateId: 'u1' })).toBe(1);
  const second = counter.update(runId, 'add', 1, { ...o, updateId: 'u2' });
  expect(await first.done).toEqual({ killed: 'SIGKILL' });
  // 2. Another worker applies it: its caller gets its result; then killed right after answering u3.
  const next = serve({ FINO_TEST_KILL_AFTER_ANSWER: '2' });
  expect(await second).toBe(2);
  expect(await counter.update(runId, 'add', 10, { ...o, updateId: 'u3' })).toBe(12);
  expect(await next.done).toEqual({ killed: 'SIGKILL' });
  // 3. A third worker: sending u2 and u3 again applies nothing; the count holds each once.
  const last = serve();
  expect(await counter.update(runId, 'add', 1, { ...o, updateId: 'u2' })).toBe(2);
  expect(await counter.update(runId, 'add', 10, { ...o, updateId: 'u3' })).toBe(12);
  expect(await counter.query(runId, 'count', undefined, o)).toBe(12);
  await counter.signal({ store, runId, name: 'stop' });
  expect(await counter.result(runId, o)).toBe(12);
  last.process.kill('SIGKILL');
  await last.done;
  const updates = (await store.history(runId)).filter((e) => e.kind === 'update');
  expect(updates.map((e) => e.id)).toEqual(['$update:u1', '$update:u2', '$update:u3']);
  // Every handler call, live or replayed, reached 1, 2 or 12: an update applied twice would have
  // reached 3, 13 or 22. The first worker died inside the update that reached 2.
  const lines = applied(place.log);
  expect(new Set(lines.map((line) => line.applied))).toEqual(new Set([1, 2, 12]));
  expect(lines.filter((line) => line.pid === first.process.pid).at(-1)?.applied).toBe(2);
}

describe('updates across worker processes SIGKILLed mid-update', () => {
  it(
    'SQLite: no update applied twice, each caller gets its result',
    async () => {
      const db = join(dir, 'updates.db');
      const store = sqliteWorkflowStore(db);
      try {
        await scenario(store, { db, log: join(dir, 'sqlite.jsonl') });
      } finally {
        await store.close();
      }
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'PostgreSQL: no update applied twice, each caller gets its result',
    async ({ skip }) => {
      const pg = await postgres();
      if (!pg) return skip();
      const schema = await freshSchema(pg.url);
      const store = postgresWorkflowStore(pg.url, { schema });
      try {
        await scenario(store, { db: pg.url, schema, log: join(dir, 'pg.jsonl') });
      } finally {
        await store.close();
      }
    },
    PROCESS_TIMEOUT_MS,
  );
});
