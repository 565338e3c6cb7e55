/**
 * The workflow store's streams out of a run (decision 227): a stream's chunks, numbered
 * from 0 in the order the run's code wrote them, and whether it was closed. A chunk is
 * written only while its worker holds the run (fenced like a history entry,
 * `run-leases.ts`, in the insert's own statement) and kept once: written again at the same offset — a replay, or a retry after a commit whose
 * outcome was unknown — it is left as it was. Readers of this store object are woken
 * in-process when it writes; others poll (`lifecycle/read-stream.ts`).
 */
import { HELD_BY } from '../../internal/durable/index.ts';
import type { SqlExecutor } from '../../internal/sql/index.ts';
import { WorkflowError } from '../errors.ts';
import type { StoredStreamChunk, WorkflowStore } from '../types.ts';
import { writeUnderLease } from './run-leases.ts';
import type { WorkflowSql } from './store-context.ts';

/** The stream methods of the workflow store over `sql`. */
export function runStreams(
  sql: WorkflowSql,
): Pick<
  WorkflowStore,
  'streamLength' | 'appendStream' | 'closeStream' | 'streamChunks' | 'watchStream'
> {
  const { driver, t, runs, now, schema } = sql;
  const watchers = new Map<string, Set<() => void>>();
  const keyOf = (runId: string, name: string) => JSON.stringify([runId, name]);
  const wake = (runId: string, name: string) => {
    for (const listener of watchers.get(keyOf(runId, name)) ?? []) listener();
  };
  const openStream = (tx: SqlExecutor, runId: string, name: string) =>
    tx.query(
      `INSERT INTO ${t('workflow_streams')} (run_id, name) VALUES (?, ?) ON CONFLICT (run_id, name) DO NOTHING`,
      [runId, name],
    );

  return {
    async streamLength(runId, name) {
      await schema();
      const [row] = await driver.query<{ last: number | string | null; closed: unknown }>(
        `SELECT (SELECT MAX(chunk_offset) FROM ${t('workflow_stream_chunks')} WHERE run_id = ? AND name = ?) AS last,
                (SELECT closed_at FROM ${t('workflow_streams')} WHERE run_id = ? AND name = ?) AS closed`,
        [runId, name, runId, name],
      );
      return {
        length: row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1,
        closed: row?.closed !== null && row?.closed !== undefined,
      };
    },

    async appendStream(runId, owner, chunk, leaseMs) {
      await schema();
      if (chunk.offset === 0) {
        // The stream's first chunk opens it too: one transaction, as every other lease write.
        const lease = await writeUnderLease(sql, runId, owner, leaseMs, async (tx) => {
          await openStream(tx, runId, chunk.name);
          await insertChunk(sql, tx, runId, owner, chunk);
        });
        if (lease.held) wake(runId, chunk.name);
        return lease;
      }
      // One statement, fenced by the lease in its WHERE: a stream of thousands of chunks
      // costs one round trip each (the lease is extended by the worker's renewals).
      const held =
        (await insertChunk(sql, driver, runId, owner, chunk)) ||
        (
          await driver.query(`SELECT 1 FROM ${runs} WHERE run_id = ? AND ${HELD_BY}`, [
            runId,
            owner,
          ])
        ).length > 0;
      if (held) wake(runId, chunk.name);
      return { held, cancelRequested: false };
    },

    async closeStream(runId, owner, name, leaseMs) {
      await schema();
      const lease = await writeUnderLease(sql, runId, owner, leaseMs, async (tx) => {
        await openStream(tx, runId, name);
        await tx.query(
          `UPDATE ${t('workflow_streams')} SET closed_at = ${now} WHERE run_id = ? AND name = ? AND closed_at IS NULL`,
          [runId, name],
        );
      });
      if (lease.held) wake(runId, name);
      return lease;
    },

    async streamChunks(runId, name, from, limit) {
      await schema();
      // The run's state first: every chunk was written before the run ended or the stream closed.
      const [state] = await driver.query<{ status: string; closed: unknown }>(
        `SELECT r.status, s.closed_at AS closed FROM ${runs} r
         LEFT JOIN ${t('workflow_streams')} s ON s.run_id = r.run_id AND s.name = ?
         WHERE r.run_id = ?`,
        [name, runId],
      );
      if (!state) {
        throw new WorkflowError('NOT_FOUND', `no workflow run with id "${runId}"`, { runId });
      }
      const rows = await driver.query<{ chunk_offset: number | string; value: string }>(
        `SELECT chunk_offset, value FROM ${t('workflow_stream_chunks')}
         WHERE run_id = ? AND name = ? AND chunk_offset >= ? ORDER BY chunk_offset LIMIT ?`,
        [runId, name, from, limit],
      );
      const chunks = withoutGap(rows, from);
      const finished = state.status !== 'running' && state.status !== 'waiting';
      const closed = state.closed !== null && state.closed !== undefined;
      return {
        chunks,
        ended: (closed || finished) && chunks.length === rows.length && rows.length < limit,
      };
    },

    watchStream(runId, name, listener) {
      const key = keyOf(runId, name);
      const set = watchers.get(key) ?? new Set();
      set.add(listener);
      watchers.set(key, set);
      return () => {
        set.delete(listener);
        if (set.size === 0 && watchers.get(key) === set) watchers.delete(key);
      };
    },
  };
}

/**
 * Inserts `chunk` while `owner` holds the run, unless a chunk is already at its offset;
 * `true` when this call inserted it.
 */
async function insertChunk(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
  owner: string,
  chunk: { name: string; offset: number; value: string },
): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO ${sql.t('workflow_stream_chunks')} (run_id, name, chunk_offset, value, created_at)
     SELECT ?, ?, ?, ?, ${sql.now} WHERE EXISTS (SELECT 1 FROM ${sql.runs} WHERE run_id = ? AND ${HELD_BY})
     ON CONFLICT (run_id, name, chunk_offset) DO NOTHING RETURNING chunk_offset`,
    [runId, chunk.name, chunk.offset, chunk.value, runId, owner],
  );
  return rows.length > 0;
}

/** The rows from `from` on, up to the first missing offset (a chunk still being committed). */
function withoutGap(
  rows: ReadonlyArray<{ chunk_offset: number | string; value: string }>,
  from: number,
): StoredStreamChunk[] {
  const chunks: StoredStreamChunk[] = [];
  for (const row of rows) {
    const offset = Number(row.chunk_offset);
    if (offset !== from + chunks.length) break;
    chunks.push({ offset, value: row.value });
  }
  return chunks;
}
