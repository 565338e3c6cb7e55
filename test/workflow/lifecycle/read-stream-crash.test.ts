/**
 * A stream followed across processes while its worker dies: a reader in another process
 * follows the run's stream, a real worker process is SIGKILLed mid-stream, the reader
 * drops and reconnects from the offset after the last chunk it saw, and the run resumes
 * in another worker process — no chunk lost or duplicated, on SQLite and PostgreSQL.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  postgresWorkflowStore,
  type StreamChunk,
  sqliteWorkflowStore,
  type WorkflowStore,
  workflow,
} from '../../../src/workflow/index.ts';
import { nodeChild, PROCESS_TIMEOUT_MS } from '../../helpers/child-process.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const dir = tempDir('workflow-stream-crash');
const CHILD = join(import.meta.dirname, '..', 'fixtures', 'stream-worker.ts');
const postgres = postgresForTests();
/** The same id as the children's workflow: this process only starts the run. */
const streamer = workflow({ id: 'streamer', run: () => undefined });
const CHUNKS = 60;

const chunksIn = (log: string): StreamChunk[] =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

async function crashMidStream(
  store: WorkflowStore,
  place: { db: string; schema?: string },
  name: string,
) {
  const runId = `stream-${name}`;
  const base = { ...place, runId };
  await streamer.start(CHUNKS, { store, runId });
  const firstLog = join(dir, `${name}-first.jsonl`);
  const firstReader = nodeChild(CHILD, { ...base, op: 'read', log: firstLog });
  await firstReader.ready;
  const firstWorker = nodeChild(CHILD, { ...base, op: 'serve', leaseMs: 1_500 });
  while (chunksIn(firstLog).length < 10) await sleep(10);
  firstWorker.process.kill('SIGKILL');
  expect(await firstWorker.done).toEqual({ killed: 'SIGKILL' });
  const atKill = await store.streamLength(runId, 'out');
  expect(atKill.length).toBeGreaterThanOrEqual(10);
  expect(atKill.length).toBeLessThan(CHUNKS); // killed mid-stream
  expect(atKill.closed).toBe(false);
  firstReader.process.kill('SIGKILL'); // the reader's connection drops too
  expect(await firstReader.done).toEqual({ killed: 'SIGKILL' });
  const seen = chunksIn(firstLog);

  const secondLog = join(dir, `${name}-second.jsonl`);
  const from = seen.at(-1)!.offset + 1;
  const secondReader = nodeChild(CHILD, { ...base, op: 'read', from, log: secondLog });
  await secondReader.ready;
  const secondWorker = nodeChild(CHILD, { ...base, op: 'serve', leaseMs: 1_500 });
  expect(await secondWorker.done).toEqual({ ok: true });
  expect(await secondReader.done).toEqual({ ok: true, read: CHUNKS - from });

  const all = [...seen, ...chunksIn(secondLog)];
  expect(all).toEqual(
    Array.from({ length: CHUNKS }, (_, n) => ({ offset: n, value: `chunk-${n}` })),
  );
  expect(await store.streamLength(runId, 'out')).toEqual({ length: CHUNKS, closed: true });
}

describe('a stream across a worker SIGKILLed mid-stream and a reader that reconnects', () => {
  it(
    'SQLite: no chunk lost or duplicated',
    async () => {
      const db = join(dir, 'streams.db');
      const store = sqliteWorkflowStore(db);
      try {
        await crashMidStream(store, { db }, 'sqlite');
      } finally {
        await store.close();
      }
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'PostgreSQL: no chunk lost or duplicated',
    async ({ skip }) => {
      const pg = await postgres();
      if (!pg) return skip();
      const schema = await freshSchema(pg.url);
      const store = postgresWorkflowStore(pg.url, { schema });
      try {
        await crashMidStream(store, { db: pg.url, schema }, 'pg');
      } finally {
        await store.close();
      }
    },
    PROCESS_TIMEOUT_MS,
  );
});
