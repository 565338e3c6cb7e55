/**
 * The workflow store's lease code: every write a worker makes under its lease (record,
 * consume a signal, renew, park, finish, release), each fenced by the kernel's rule
 * (`src/internal/durable/leases.ts`); claiming a run is in `run-claims.ts`. Every
 * transaction that changes a run takes the run's row first (its lease `UPDATE`, or
 * `SELECT … FOR UPDATE`), then its history or signal rows.
 *
 * Every transaction here is idempotent (decision 170): run again after a commit whose
 * outcome is unknown, it recognises its own write — a history entry is rewritten as it
 * was, a signal consumed by the entry's id is that entry's, a run parked on the same
 * waits or ended with the same status was parked or ended by this write — and answers
 * as the first run would have.
 */
import { HELD_BY, leaseExpiry, placeholders, writeIfHeld } from '../../internal/durable/index.ts';
import type { SqlExecutor } from '../../internal/sql/index.ts';
import type { HistoryEntry, LeaseState, RunOutcome, WaitingOn, WorkflowStore } from '../types.ts';
import { requestsOpen } from './open-requests.ts';
import type { RunRow } from './rows.ts';
import { upsertEntry, type WorkflowSql } from './store-context.ts';

const LOST: LeaseState = { held: false, cancelRequested: false };

/** The transactions of this file recognise their own writes (see the header), as must those that use {@link writeUnderLease}. */
export const IDEMPOTENT = { idempotent: true } as const;

const isSet = (flag: number | string | boolean) => Number(flag) === 1 || flag === true;

/** Extends `owner`'s lease inside `tx`; what it learns about the run. */
export async function extendLease(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
  owner: string,
  leaseMs: number,
): Promise<LeaseState> {
  const [row] = await writeIfHeld<{ cancel_requested: number | string | boolean }>(
    tx,
    {
      table: sql.runs,
      set: `lease_expires_at = ${leaseExpiry(sql.driver)}, updated_at = ${sql.now}`,
      params: [Math.ceil(leaseMs)],
      returning: 'cancel_requested',
    },
    runId,
    owner,
  );
  return row ? { held: true, cancelRequested: isSet(row.cancel_requested) } : LOST;
}

/**
 * One transaction that extends `owner`'s lease and, while it holds the run, makes
 * `write` in it: the shape of every write of a worker beside its history (an entry, a
 * request's answer, a stream's chunk or close). Idempotent, as this file's header says
 * (`write` must recognise its own rows); what it learns about the lease.
 */
export function writeUnderLease(
  sql: WorkflowSql,
  runId: string,
  owner: string,
  leaseMs: number,
  write: (tx: SqlExecutor) => Promise<unknown>,
): Promise<LeaseState> {
  return sql.driver.transaction(async (tx) => {
    const lease = await extendLease(sql, tx, runId, owner, leaseMs);
    if (lease.held) await write(tx);
    return lease;
  }, IDEMPOTENT);
}

/** The writes under a lease of the workflow store over `sql`. */
export function runLeases(
  sql: WorkflowSql,
): Pick<WorkflowStore, 'record' | 'consumeSignal' | 'renew' | 'park' | 'finish' | 'release'> {
  const { driver, t, runs, now, schema } = sql;
  return {
    async record(runId, owner, entry, leaseMs) {
      await schema();
      return writeUnderLease(sql, runId, owner, leaseMs, (tx) =>
        upsertEntry(sql, tx, runId, entry),
      );
    },

    async consumeSignal(runId, owner, entry, leaseMs) {
      await schema();
      return driver.transaction(async (tx) => {
        const lease = await extendLease(sql, tx, runId, owner, leaseMs);
        if (!lease.held) return { ...lease, consumed: false };
        // The signal this entry consumed already (its commit's outcome was unknown), else the oldest queued.
        const [signal] = await tx.query<{ id: number | string; payload: string | null }>(
          `SELECT id, payload FROM ${t('workflow_signals')} WHERE run_id = ? AND (consumed_by = ? OR (name = ? AND consumed_by IS NULL))
           ORDER BY CASE WHEN consumed_by IS NULL THEN 1 ELSE 0 END, id LIMIT 1`,
          [runId, entry.id, entry.name],
        );
        if (!signal) return { ...lease, consumed: false };
        await tx.query(`UPDATE ${t('workflow_signals')} SET consumed_by = ? WHERE id = ?`, [
          entry.id,
          signal.id,
        ]);
        const done: HistoryEntry = { ...entry, state: 'done', endedAt: Date.now() };
        if (signal.payload !== null) done.value = signal.payload;
        else delete done.value;
        await upsertEntry(sql, tx, runId, done);
        return { ...lease, consumed: true, entry: done };
      }, IDEMPOTENT);
    },

    async renew(runId, owner, leaseMs) {
      await schema();
      return extendLease(sql, driver, runId, owner, leaseMs);
    },

    async park(runId, owner, waiting: WaitingOn) {
      await schema();
      return driver.transaction((tx) => parkRun(sql, tx, runId, owner, waiting), IDEMPOTENT);
    },

    async finish(runId, owner, outcome: RunOutcome) {
      await schema();
      return driver.transaction(async (tx) => {
        const [row] = await writeIfHeld<{ parent_run_id: string | null }>(
          tx,
          {
            table: runs,
            set: `status = ?, output = ?, error = ?, waiting = NULL, wake_at = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}`,
            params: [
              outcome.status,
              outcome.status === 'done' ? (outcome.output ?? null) : null,
              outcome.status !== 'done' && outcome.error ? JSON.stringify(outcome.error) : null,
            ],
            returning: 'parent_run_id',
          },
          runId,
          owner,
        );
        if (!row) return endedSo(sql, tx, runId, outcome.status);
        if (row.parent_run_id !== null) {
          // A child's end wakes the parent that waits for it. The row is locked whatever the
          // parent's status: a parent still running waits for this commit before its park
          // reads its children (PostgreSQL's READ COMMITTED would otherwise let it park on
          // a child that has just ended, and no wake would follow).
          await tx.query(
            `UPDATE ${runs} SET wake_at = CASE WHEN status = 'waiting' THEN ${now} ELSE wake_at END,
               updated_at = CASE WHEN status = 'waiting' THEN ${now} ELSE updated_at END
             WHERE run_id = ? AND status IN ('running', 'waiting')`,
            [row.parent_run_id],
          );
        }
        return true;
      }, IDEMPOTENT);
    },

    async release(runId, owner) {
      await schema();
      await writeIfHeld(
        driver,
        {
          table: runs,
          set: `lease_owner = NULL, lease_expires_at = NULL, wake_at = ${now}, updated_at = ${now}`,
          params: [],
        },
        runId,
        owner,
      );
    },
  };
}

/**
 * Parks the run `owner` holds on what it waits for, unless that has already come (a
 * signal queued, a timer due, a child ended, a cancellation asked): then `again`.
 */
async function parkRun(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
  owner: string,
  waiting: WaitingOn,
): Promise<'lost' | 'again' | 'parked'> {
  const { t, runs, now } = sql;
  const [row] = await tx.query<RunRow>(
    `SELECT * FROM ${runs} WHERE run_id = ? AND ${HELD_BY}${sql.driver.forUpdate}`,
    [runId, owner],
  );
  if (!row) return (await parkedOn(sql, tx, runId, waiting)) ? 'parked' : 'lost';
  if (isSet(row.cancel_requested) && !waiting.afterCancel) return 'again';
  if (waiting.timerDueAt !== undefined && waiting.timerDueAt <= Date.now()) return 'again';
  if (waiting.requests && (await requestsOpen(sql, tx, runId))) return 'again';
  if (waiting.signals.length > 0) {
    const [queued] = await tx.query(
      `SELECT id FROM ${t('workflow_signals')} WHERE run_id = ? AND consumed_by IS NULL AND name IN (${placeholders(waiting.signals)}) LIMIT 1`,
      [runId, ...waiting.signals],
    );
    if (queued) return 'again';
  }
  if (waiting.children && waiting.children.length > 0) {
    const [ended] = await tx.query(
      `SELECT run_id FROM ${runs} WHERE (run_id IN (${placeholders(waiting.children)}) OR chain_root IN (${placeholders(waiting.children)})) AND status IN ('done', 'error', 'cancelled') LIMIT 1`,
      [...waiting.children, ...waiting.children], // a child that continued as new ends with its chain
    );
    if (ended) return 'again';
  }
  await tx.query(
    `UPDATE ${runs} SET status = 'waiting', waiting = ?, wake_at = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}
     WHERE run_id = ?`,
    [JSON.stringify(waiting), waiting.timerDueAt ?? null, runId],
  );
  return 'parked';
}

/**
 * Whether the run `finish` found no longer held already ended with `status`: this
 * worker's own `finish`, run again after a commit whose outcome was unknown.
 */
async function endedSo(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
  status: RunOutcome['status'],
): Promise<boolean> {
  const [row] = await tx.query<{ status: string }>(
    `SELECT status FROM ${sql.runs} WHERE run_id = ?${sql.driver.forUpdate}`,
    [runId],
  );
  return row?.status === status;
}

/**
 * Whether the run `park` found no longer held is parked on `waiting` already: this
 * worker's own `park`, run again after a commit whose outcome was unknown.
 */
async function parkedOn(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
  waiting: WaitingOn,
): Promise<boolean> {
  const [row] = await tx.query<{ status: string; waiting: string | null }>(
    `SELECT status, waiting FROM ${sql.runs} WHERE run_id = ?${sql.driver.forUpdate}`,
    [runId],
  );
  return row?.status === 'waiting' && row.waiting === JSON.stringify(waiting);
}
