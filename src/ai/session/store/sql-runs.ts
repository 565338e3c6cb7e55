/**
 * The SQL store's runs as callers read and change them outside a lease: create (taking
 * its thread in the same transaction), get, list, cancel and the audit trail.
 */
import { appendAudit, leaseExpiry, readAudit } from '../../../internal/durable/index.ts';
import type { SqlExecutor } from '../../../internal/sql/index.ts';
import { SessionError } from '../errors.ts';
import type { AuditEntry, ListFilter, Store, ThreadStart } from '../types.ts';
import { decodeRun, type PendingRow, RECORD_FORMAT, type RunRow } from './codec.ts';
import type { SessionDriver } from './migrations.ts';
import {
  currentPendingSql,
  FINISHED,
  leaseLength,
  loadRun,
  nextRevision,
  toJson,
} from './sql-rows.ts';
import {
  DEFAULT_THREAD_TOKENS,
  releaseThread,
  takeThread,
  threadWindow,
} from './sql-threads/index.ts';

/** The run operations of the SQL store over `driver`, each awaiting `schema()` first. */
export function runQueries(
  driver: SessionDriver,
  schema: () => Promise<void>,
): Pick<Store, 'create' | 'get' | 'list' | 'cancel' | 'audit'> {
  const t = driver.table;
  const now = driver.nowMs;
  return {
    async create(run) {
      return createRun(driver, schema, run);
    },

    async get(runId) {
      await schema();
      const [row] = await driver.query<RunRow>(`SELECT * FROM ${t('runs')} WHERE run_id = ?`, [
        runId,
      ]);
      return row ? loadRun(driver, t, row) : undefined;
    },

    async list(filter: ListFilter = {}) {
      await schema();
      const where = `(CAST(? AS TEXT) IS NULL OR r.status = ?) AND (CAST(? AS TEXT) IS NULL OR r.thread_id = ?)`;
      const params = [
        filter.status ?? null,
        filter.status ?? null,
        filter.threadId ?? null,
        filter.threadId ?? null,
      ];
      const rows = await driver.query<RunRow>(
        `SELECT r.* FROM ${t('runs')} r WHERE ${where} ORDER BY r.created_at, r.run_id`,
        params,
      );
      const pending = await driver.query<PendingRow>(currentPendingSql(t, where), params);
      const byRun = new Map<string, PendingRow[]>();
      for (const p of pending) byRun.set(p.run_id, [...(byRun.get(p.run_id) ?? []), p]);
      const pendingOfRow = (row: RunRow) =>
        FINISHED.includes(row.status) ? [] : (byRun.get(row.run_id) ?? []);
      return rows.map((row) => {
        try {
          return decodeRun(row, pendingOfRow(row));
        } catch (error) {
          if (error instanceof SessionError) return error;
          throw error;
        }
      });
    },

    async cancel(runId, actor) {
      await schema();
      await driver.transaction(async (tx) => {
        const [row] = await tx.query<{ status: string; thread_id: string | null }>(
          `SELECT status, thread_id FROM ${t('runs')} WHERE run_id = ?${driver.forUpdate}`,
          [runId],
        );
        if (!row) throw new SessionError('NOT_FOUND', `no run with id "${runId}"`, runId);
        if (row.status === 'done' || row.status === 'cancelled') {
          throw new SessionError(
            'NOT_PENDING',
            `run "${runId}" is already ${row.status}; only an unfinished run can be cancelled`,
            runId,
          );
        }
        await tx.query(
          `UPDATE ${t('runs')} SET status = 'cancelled', lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}, revision = ${nextRevision(driver)}
           WHERE run_id = ?`,
          [runId],
        );
        await appendAudit(tx, t('audit'), now, {
          runId,
          action: 'cancel',
          actor: actor.by ?? null,
          note: actor.note ?? null,
        });
        if (row.thread_id !== null) await releaseThread(tx, driver, row.thread_id, runId);
      });
    },

    async audit(runId) {
      await schema();
      const subject = { column: 'tool_call_id', key: 'toolCallId' } as const;
      return readAudit<AuditEntry>(driver, t('audit'), runId, subject);
    },
  };
}

/** Inserts a run leased to its creator, taking its thread in the same transaction (see `Store.create`). */
async function createRun(
  driver: SessionDriver,
  schema: () => Promise<void>,
  { runId, threadId, input, owner, leaseMs, threadTokens }: Parameters<Store['create']>[0],
): Promise<ThreadStart | undefined> {
  const t = driver.table;
  const now = driver.nowMs;
  const json = toJson(input, 'input');
  const lease = leaseLength(leaseMs);
  await schema();
  const insert = (db: SqlExecutor, thread?: ThreadStart) =>
    db.query(
      `INSERT INTO ${t('runs')} (run_id, thread_id, status, format, input, round, lease_owner, lease_expires_at, created_at, updated_at, revision, thread_start, thread_loaded)
         VALUES (?, ?, 'running', ?, ?, 0, ?, ${leaseExpiry(driver)}, ${now}, ${now}, ${nextRevision(driver)}, ?, ?)`,
      [
        runId,
        threadId ?? null,
        RECORD_FORMAT,
        json,
        owner,
        lease,
        thread?.start ?? null,
        thread?.history.length ?? null,
      ],
    );
  const maxTokens = threadTokens ?? DEFAULT_THREAD_TOKENS;
  try {
    if (threadId === undefined) {
      await insert(driver);
      return undefined;
    }
    // The thread is taken in the transaction that inserts its run (decision 147).
    return await driver.transaction(
      async (tx) => {
        // This very insert, run again after a commit whose outcome was unknown: its thread is taken.
        if (await isOwnRun(driver, tx, runId, owner)) {
          return threadWindow(tx, driver, threadId, maxTokens);
        }
        const thread = await takeThread(tx, driver, threadId, runId, maxTokens);
        await insert(tx, thread);
        return thread;
      },
      { idempotent: true },
    );
  } catch (error) {
    if (!driver.isUniqueViolation(error)) throw error;
    // The statement was retried after its first try's commit landed unseen (decision 170).
    if (await isOwnRun(driver, driver, runId, owner)) return undefined;
    throw new SessionError('RUN_EXISTS', `a run with id "${runId}" already exists`, runId);
  }
}

/**
 * Whether run `runId` is the one `create` inserts for `owner` — leased to it and not
 * driven yet — so an insert that finds it is its own first try, whose commit landed
 * though its outcome was unknown. The owner a caller passes is its alone: a session's
 * `start` passes one made for that start (decision 170).
 */
async function isOwnRun(
  driver: SessionDriver,
  db: SqlExecutor,
  runId: string,
  owner: string,
): Promise<boolean> {
  const [row] = await db.query(
    `SELECT run_id FROM ${driver.table('runs')} WHERE run_id = ? AND lease_owner = ? AND status = 'running' AND state IS NULL`,
    [runId, owner],
  );
  return row !== undefined;
}
