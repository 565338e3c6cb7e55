/**
 * Leases of the SQL store: which runs a worker may claim, claiming them, and the writes
 * a worker makes under its lease (checkpoint, progress, renewal; `finish` in
 * `sql-finish.ts`).
 *
 * A lease is `lease_owner` with `lease_expires_at` on a `running` run: the durable
 * kernel's rule (`src/internal/durable/leases.ts`). A worker writes to a run only
 * through the kernel's fenced `UPDATE … WHERE lease_owner = <it> AND status =
 * 'running'`, so once another worker has taken the run over (its lease expired) the
 * first one's writes change nothing, and it learns so from the row count.
 *
 * Lock order. Every transaction that changes a run locks its `fino_runs` row first
 * (`SELECT … FOR UPDATE`, or the run's `UPDATE`), then writes its `fino_pending` rows,
 * then appends to `fino_audit`; no transaction takes a run's row after its pending rows,
 * so two transactions never wait on each other in a cycle. Lookups by token read
 * `fino_pending` without locking and are checked again under the run's lock. Claiming
 * the next run skips rows another transaction holds (`SKIP LOCKED`) so that workers do
 * not queue behind each other. SQLite locks the whole database per write transaction
 * (`BEGIN IMMEDIATE`), which trivially keeps this order.
 *
 * Claiming (decision 089) is one transaction of two statements: the lease `UPDATE … WHERE
 * run_id = (SELECT … FOR UPDATE SKIP LOCKED) AND <claimable> RETURNING *`, which locks,
 * re-checks and leases the row at once, then the read of its current pending rows, whose
 * snapshot (PostgreSQL) is taken once the row is locked. Joined into the `UPDATE`, they
 * would be read under the snapshot taken before the lock: right today only because
 * nothing changes a run's pending rows and leaves it claimable (decisions are taken on
 * `suspended` runs, `finish` needs the lease), an invariant of other files the claim
 * does not lean on for one round trip. The run is decoded before the commit, so an
 * unreadable run's lease is rolled back and its row left as it was.
 */

import {
  andNotIn,
  claimSkipping,
  leaseExpired,
  leaseExpiry,
  oldestUnlocked,
  takeLeaseSet,
  writeIfHeld,
} from '../../../internal/durable/index.ts';
import type { SqlExecutor } from '../../../internal/sql/index.ts';
import { SessionError } from '../errors.ts';
import type { RunStatus, Store, StoredRun } from '../types.ts';
import type { RunRow } from './codec.ts';
import type { SessionDriver } from './migrations.ts';
import { leaseLength, loadRun, nextRevision, toJson } from './sql-rows.ts';

/**
 * The SQL condition of a claimable run: `ready`, `running` with an expired lease (its
 * worker died), or (with `retryErrors`) `error`.
 */
const claimable = (driver: SessionDriver, retryErrors: boolean) =>
  `(status = 'ready' OR (status = 'running' AND ${leaseExpired(driver)})${retryErrors ? ` OR status = 'error'` : ''})`;

/** Leases `runId` to `owner` inside a transaction that holds the run's row; returns the lease columns. */
export async function takeLease(
  driver: SessionDriver,
  tx: SqlExecutor,
  runId: string,
  owner: string,
  leaseMs: number,
): Promise<RunRow> {
  const [row] = await tx.query<RunRow>(
    `UPDATE ${driver.table('runs')} SET ${takeLeaseSet(driver)}, revision = ${nextRevision(driver)}
     WHERE run_id = ? RETURNING lease_owner, lease_expires_at, updated_at, revision`,
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
  revision: Number(taken.revision),
});

/**
 * Leases to `owner` the claimable run that `which` (a condition on `run_id`) selects, in
 * one `UPDATE … RETURNING *` that checks the run is claimable again as it takes the row's
 * lock, then reads its current pending rows in a second statement — so, in PostgreSQL,
 * under a snapshot taken after the lock (see the header). The
 * run is decoded inside `tx`: when it cannot be read, `CORRUPT_RUN` rolls the lease back
 * and the row stays untouched. `undefined` when no run is claimable.
 */
async function leaseRun(
  driver: SessionDriver,
  tx: SqlExecutor,
  which: string,
  params: readonly unknown[],
  owner: string,
  leaseMs: number,
  retryErrors: boolean,
): Promise<StoredRun | undefined> {
  const t = driver.table;
  const [row] = await tx.query<RunRow>(
    `UPDATE ${t('runs')} SET ${takeLeaseSet(driver)}, revision = ${nextRevision(driver)}, claimed_from = status
     WHERE ${which} AND ${claimable(driver, retryErrors)} RETURNING *`,
    [owner, leaseLength(leaseMs), ...params],
  );
  return row && { ...(await loadRun(tx, t, row)), claimedFrom: row.claimed_from as RunStatus };
}

/** Leases `runId` to `owner` when it is claimable; `undefined` when it is not. */
export function claimRun(
  driver: SessionDriver,
  runId: string,
  owner: string,
  leaseMs: number,
  retryErrors: boolean,
): Promise<StoredRun | undefined> {
  return driver.transaction((tx) =>
    leaseRun(driver, tx, 'run_id = ?', [runId], owner, leaseMs, retryErrors),
  );
}

/**
 * Leases the oldest claimable run not in `exclude` (and not locked by another worker) to
 * `owner` — oldest by its last change, runs changed in the same millisecond by revision; unreadable candidates are skipped, left untouched (their lease rolled back),
 * and returned in `corrupt`.
 */
export function claimNextRun(
  driver: SessionDriver,
  owner: string,
  leaseMs: number,
  exclude: readonly string[],
): Promise<{ run?: StoredRun; corrupt: SessionError[] }> {
  const runs = driver.table('runs');
  return claimSkipping<StoredRun, SessionError>(
    (skip) => {
      const where = `${claimable(driver, false)}${andNotIn('run_id', skip)}`;
      const oldest = oldestUnlocked(driver, runs, where, 'updated_at, revision, run_id');
      return driver.transaction((tx) => leaseRun(driver, tx, oldest, skip, owner, leaseMs, false));
    },
    (error) =>
      error instanceof SessionError && error.code === 'CORRUPT_RUN' ? error.runId : undefined,
    exclude,
  );
}

/** The writes a worker makes to the run it holds: each `false` once its lease is lost. */
export function leaseWrites(
  driver: SessionDriver,
  schema: () => Promise<void>,
): Pick<Store, 'checkpoint' | 'progress' | 'renew'> {
  const table = driver.table('runs');
  const now = driver.nowMs;
  return {
    async checkpoint(runId, owner, state, leaseMs) {
      // Serialised before the first await: the session passes the agent's live state (decision 089).
      const json = toJson(state, 'state');
      await schema();
      const set = `state = ?, usage = ?, lease_expires_at = ${leaseExpiry(driver)}, updated_at = ${now}, revision = ${nextRevision(driver)}`;
      const params = [json, toJson(state.usage ?? null, 'usage'), leaseLength(leaseMs)];
      return (await writeIfHeld(driver, { table, set, params }, runId, owner)).length === 1;
    },

    async progress(runId, owner, progress) {
      await schema();
      const params = [toJson(progress, 'progress')];
      const written = await writeIfHeld(
        driver,
        { table, set: 'progress = ?', params },
        runId,
        owner,
      );
      return written.length === 1;
    },

    async renew(runId, owner, leaseMs) {
      await schema();
      const set = `lease_expires_at = ${leaseExpiry(driver)}`;
      const params = [leaseLength(leaseMs)];
      return (await writeIfHeld(driver, { table, set, params }, runId, owner)).length === 1;
    },
  };
}
