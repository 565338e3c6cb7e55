/**
 * Leases of the SQL store: which runs a worker may claim, and claiming them.
 *
 * A lease is `lease_owner` with `lease_expires_at` on a `running` run. A worker writes
 * to a run (checkpoint, renewal, progress, finish) only through one `UPDATE … WHERE
 * lease_owner = <it> AND status = 'running'`, so once another worker has taken the run
 * over (its lease expired) the first one's writes change nothing, and it learns so from
 * the row count.
 *
 * Lock order. Every transaction that changes a run locks its `fino_runs` row first
 * (`SELECT … FOR UPDATE`, or the run's `UPDATE`), then writes its `fino_pending` rows,
 * then appends to `fino_audit`; no transaction takes a run's row after its pending rows,
 * so two transactions never wait on each other in a cycle. Lookups by token read
 * `fino_pending` without locking and are checked again under the run's lock. Claiming
 * the next run skips rows another transaction holds (`SKIP LOCKED`) so that workers do
 * not queue behind each other. SQLite locks the whole database per write transaction
 * (`BEGIN IMMEDIATE`), which trivially keeps this order.
 */
import type { RunRow } from './codec.ts';
import { SessionError } from './errors.ts';
import type { SqlDriver, SqlExecutor } from './sql-driver.ts';
import { leaseLength, loadRun } from './sql-rows.ts';
import type { StoredRun } from './types.ts';

/**
 * The SQL condition of a claimable run: `ready`, `running` with an expired lease (its
 * worker died), or (with `retryErrors`) `error`.
 */
const claimable = (driver: SqlDriver, retryErrors: boolean) =>
  `(status = 'ready' OR (status = 'running' AND lease_expires_at < ${driver.nowMs})${retryErrors ? ` OR status = 'error'` : ''})`;

/** Leases `runId` to `owner` inside a transaction that holds the run's row; returns the lease columns. */
export async function takeLease(
  driver: SqlDriver,
  tx: SqlExecutor,
  runId: string,
  owner: string,
  leaseMs: number,
): Promise<RunRow> {
  const { table: t, nowMs: now } = driver;
  const [row] = await tx.query<RunRow>(
    `UPDATE ${t('runs')} SET status = 'running', lease_owner = ?, lease_expires_at = ${now} + ?, updated_at = ${now}
     WHERE run_id = ? RETURNING lease_owner, lease_expires_at, updated_at`,
    [owner, leaseLength(leaseMs), runId],
  );
  return row;
}

/** The run as it is once leased (decoded before the update, so a corrupt row stays untouched). */
export const leased = (run: StoredRun, taken: RunRow): StoredRun => ({
  ...run,
  status: 'running',
  leaseOwner: taken.lease_owner!,
  leaseExpiresAt: Number(taken.lease_expires_at),
  updatedAt: Number(taken.updated_at),
});

/** Leases `runId` to `owner` when it is claimable; `undefined` when it is not. */
export function claimRun(
  driver: SqlDriver,
  runId: string,
  owner: string,
  leaseMs: number,
  retryErrors: boolean,
): Promise<StoredRun | undefined> {
  const t = driver.table;
  return driver.transaction(async (tx) => {
    const [row] = await tx.query<RunRow>(
      `SELECT * FROM ${t('runs')} WHERE run_id = ? AND ${claimable(driver, retryErrors)}${driver.forUpdate}`,
      [runId],
    );
    if (!row) return undefined;
    return leased(await loadRun(tx, t, row), await takeLease(driver, tx, runId, owner, leaseMs));
  });
}

/**
 * Leases the oldest claimable run not in `exclude` (and not locked by another worker) to
 * `owner`; unreadable candidates are skipped, left untouched, and returned in `corrupt`.
 */
export function claimNextRun(
  driver: SqlDriver,
  owner: string,
  leaseMs: number,
  exclude: readonly string[],
): Promise<{ run?: StoredRun; corrupt: SessionError[] }> {
  const t = driver.table;
  return driver.transaction(async (tx) => {
    const corrupt: SessionError[] = [];
    const skip = [...exclude];
    for (;;) {
      const notIn = skip.length > 0 ? ` AND run_id NOT IN (${skip.map(() => '?').join(', ')})` : '';
      const [row] = await tx.query<RunRow>(
        `SELECT * FROM ${t('runs')} WHERE ${claimable(driver, false)}${notIn}
         ORDER BY updated_at, run_id LIMIT 1${driver.forUpdateSkipLocked}`,
        skip,
      );
      if (!row) return { corrupt };
      let run: StoredRun;
      try {
        run = await loadRun(tx, t, row);
      } catch (error) {
        if (!(error instanceof SessionError)) throw error;
        corrupt.push(error);
        skip.push(row.run_id);
        continue;
      }
      return { run: leased(run, await takeLease(driver, tx, row.run_id, owner, leaseMs)), corrupt };
    }
  });
}
