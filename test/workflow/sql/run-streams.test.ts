/**
 * The store's stream rows on SQLite and PostgreSQL: a chunk is written only by the worker
 * that holds the run, once per offset, and read back without a gap.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  postgresWorkflowStore,
  sqliteWorkflowStore,
  type WorkflowStore,
} from '../../../src/workflow/index.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const dir = tempDir('workflow-run-streams');
const postgres = postgresForTests();

async function fencedOnce(store: WorkflowStore) {
  await store.create({ runId: 'r1', workflowId: 'w' });
  const { run } = await store.claimNext('worker-a', 30_000, ['w']);
  expect(run?.runId).toBe('r1');
  const chunk = (offset: number, value: string) => ({
    name: 's',
    offset,
    value: JSON.stringify(value),
  });
  for (const offset of [0, 1]) {
    expect(
      await store.appendStream('r1', 'worker-a', chunk(offset, `a${offset}`), 30_000),
    ).toMatchObject({ held: true });
  }
  // Written again (a replay, a retried commit): kept as it was.
  expect(await store.appendStream('r1', 'worker-a', chunk(1, 'again'), 30_000)).toMatchObject({
    held: true,
  });
  // A worker that does not hold the run writes nothing, first chunk or later one.
  expect(await store.appendStream('r1', 'worker-b', chunk(2, 'b2'), 30_000)).toEqual({
    held: false,
    cancelRequested: false,
  });
  expect(
    await store.appendStream('r1', 'worker-b', { ...chunk(0, 'b0'), name: 't' }, 30_000),
  ).toMatchObject({ held: false });
  expect(await store.closeStream('r1', 'worker-b', 's', 30_000)).toMatchObject({ held: false });
  expect(await store.streamLength('r1', 's')).toEqual({ length: 2, closed: false });
  expect(await store.streamLength('r1', 't')).toEqual({ length: 0, closed: false });
  expect(await store.streamChunks('r1', 's', 0, 10)).toEqual({
    chunks: [
      { offset: 0, value: '"a0"' },
      { offset: 1, value: '"a1"' },
    ],
    ended: false,
  });
  expect(await store.closeStream('r1', 'worker-a', 's', 30_000)).toMatchObject({ held: true });
  expect(await store.streamChunks('r1', 's', 1, 10)).toEqual({
    chunks: [{ offset: 1, value: '"a1"' }],
    ended: true,
  });
  expect(await store.streamChunks('r1', 's', 0, 1)).toMatchObject({ ended: false }); // more than one page
  await expect(store.streamChunks('nope', 's', 0, 10)).rejects.toMatchObject({ code: 'NOT_FOUND' });
}

describe('stream rows', () => {
  it('SQLite: written by the lease holder only, once per offset', async () => {
    const store = sqliteWorkflowStore(join(dir, 'rows.db'));
    try {
      await fencedOnce(store);
    } finally {
      await store.close();
    }
  });

  it('PostgreSQL: written by the lease holder only, once per offset', async ({ skip }) => {
    const pg = await postgres();
    if (!pg) return skip();
    const store = postgresWorkflowStore(pg.url, { schema: await freshSchema(pg.url) });
    try {
      await fencedOnce(store);
    } finally {
      await store.close();
    }
  });
});
