/**
 * Reading and writing the rows of the SQL store: JSON columns, lease lengths, and a run
 * loaded with its current pending calls.
 *
 * Rounds and positions. `fino_runs.round` counts the run's suspensions: `finish` with a
 * suspension increments it and, in the same transaction, inserts that suspension's
 * pending calls as `fino_pending` rows carrying the new round and their `position`, the
 * order the agent reported them in. So a run's current pending calls are exactly the
 * rows whose round equals the run's round, in position order; rows of earlier rounds are
 * history — kept so that an old token is answered `ALREADY_DECIDED` or `NOT_PENDING`
 * instead of `NOT_FOUND` — and are never loaded with the run. A run that is done or
 * cancelled has no current pending calls, whatever its rows say.
 */

import type { SqlExecutor } from '../../../internal/sql/index.ts';
import { SessionError } from '../errors.ts';
import type { StoredRun } from '../types.ts';
import { decodeRun, type PendingRow, type RunRow } from './codec.ts';
import type { SessionDriver, TableName } from './migrations.ts';

/**
 * SQL for the next run revision (migration 5): every statement that changes a run's
 * `updated_at` sets `revision` to it too, so runs changed in the same millisecond still
 * have an order. PostgreSQL takes it from a sequence; SQLite, whose writers take turns,
 * from the highest one (indexed).
 */
export const nextRevision = (driver: SessionDriver): string =>
  driver.dialect === 'postgres'
    ? `nextval('${driver.table('run_revisions')}')`
    : `(SELECT COALESCE(MAX(revision), 0) + 1 FROM ${driver.table('runs')})`;

/** Statuses whose pending calls are history, not loaded with the run. */
export const FINISHED = ['done', 'cancelled'];

/** `value` as JSON text; `INVALID_ARGUMENT` naming `what` when it has no JSON form. */
export function toJson(value: unknown, what: string): string {
  try {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError('not representable as JSON');
    return text;
  } catch (error) {
    throw new SessionError(
      'INVALID_ARGUMENT',
      `${what} must be JSON-serializable: ${(error as Error).message}`,
    );
  }
}

/** A lease length as whole milliseconds; `INVALID_ARGUMENT` unless positive and finite. */
export function leaseLength(leaseMs: number): number {
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) {
    throw new SessionError(
      'INVALID_ARGUMENT',
      `leaseMs: expected a positive number of milliseconds, received ${leaseMs}`,
    );
  }
  return Math.ceil(leaseMs);
}

/** The SQL selecting the current round's pending rows of the runs `where` matches, in run and position order. */
export const currentPendingSql = (t: TableName, where: string): string =>
  `SELECT p.* FROM ${t('pending')} p JOIN ${t('runs')} r ON r.run_id = p.run_id AND r.round = p.round
   WHERE ${where} ORDER BY p.run_id, p.position`;

/** Decodes a run row with its current pending calls; `CORRUPT_RUN` when it cannot be read. */
export async function loadRun(db: SqlExecutor, t: TableName, row: RunRow): Promise<StoredRun> {
  const pending = FINISHED.includes(row.status)
    ? []
    : await db.query<PendingRow>(currentPendingSql(t, 'p.run_id = ?'), [row.run_id]);
  return decodeRun(row, pending);
}
