/**
 * Leases of a durable store's runs, the one rule both stores keep (decision 047): a
 * lease is `lease_owner` with `lease_expires_at` on a `running` run, times by the
 * database's clock (`driver.nowMs`). A worker writes to its run (a checkpoint, a renewal,
 * its end) only through one `UPDATE … WHERE run_id = ? AND lease_owner = <it> AND status
 * = 'running'` — {@link writeIfHeld} — so once another worker has taken the run over
 * (its lease expired) the late writer's statement changes nothing, and it learns so from
 * the row count: it is fenced. Claiming takes the oldest claimable row no other
 * transaction holds (`FOR UPDATE SKIP LOCKED` on PostgreSQL) in one `UPDATE … RETURNING`,
 * and a row that cannot be read is skipped, its lease rolled back ({@link claimSkipping}).
 */
import type { SqlDriver, SqlExecutor } from '../sql/index.ts';

/** The condition under which a run's lease is held by the owner bound to `?`. */
export const HELD_BY = `lease_owner = ? AND status = 'running'`;

/** SQL of a lease's new expiry, `leaseMs` (bound to `?`) from the database's now. */
export const leaseExpiry = (driver: Pick<SqlDriver, 'nowMs'>): string => `${driver.nowMs} + ?`;

/** SQL condition of a lease that has run out: its worker died or stalled. */
export const leaseExpired = (driver: Pick<SqlDriver, 'nowMs'>): string =>
  `lease_expires_at < ${driver.nowMs}`;

/** SQL setting the columns that lease a run to the owner bound to `?` for the `?` ms after. */
export const takeLeaseSet = (driver: Pick<SqlDriver, 'nowMs'>): string =>
  `status = 'running', lease_owner = ?, lease_expires_at = ${leaseExpiry(driver)}, updated_at = ${driver.nowMs}`;

/** `?, ?, …`: one placeholder per value. */
export const placeholders = (values: readonly unknown[]): string =>
  values.map(() => '?').join(', ');

/** ` AND <column> NOT IN (?, …)`, or nothing when `values` is empty. */
export const andNotIn = (column: string, values: readonly unknown[]): string =>
  values.length > 0 ? ` AND ${column} NOT IN (${placeholders(values)})` : '';

/**
 * SQL condition picking the one run `SELECT run_id FROM <table> WHERE <where> ORDER BY
 * <order> LIMIT 1` finds, skipping rows other transactions have locked.
 */
export const oldestUnlocked = (
  driver: Pick<SqlDriver, 'forUpdateSkipLocked'>,
  table: string,
  where: string,
  order: string,
): string =>
  `run_id = (SELECT run_id FROM ${table} WHERE ${where} ORDER BY ${order} LIMIT 1${driver.forUpdateSkipLocked})`;

/**
 * A write that only the lease's holder makes: `UPDATE <table> SET <set> WHERE run_id = ?
 * AND <held by owner> RETURNING <returning>`, with `params` for `set`'s placeholders. No
 * row back means the lease was lost (expired and taken over, or the run ended): the late
 * writer is fenced and changed nothing.
 */
export function writeIfHeld<Row = { run_id: string }>(
  db: SqlExecutor,
  write: { table: string; set: string; params: readonly unknown[]; returning?: string },
  runId: string,
  owner: string,
): Promise<Row[]> {
  return db.query<Row>(
    `UPDATE ${write.table} SET ${write.set} WHERE run_id = ? AND ${HELD_BY} RETURNING ${write.returning ?? 'run_id'}`,
    [...write.params, runId, owner],
  );
}

/**
 * Claims runs with `claim(skip)` until one is claimed or none is left, skipping those
 * `corruptRunId` recognises in a thrown error (an unreadable row whose lease `claim`'s
 * transaction rolled back): they are returned in `corrupt`, untouched. `exclude` are
 * run ids not to claim at all.
 */
export async function claimSkipping<Run, Failure>(
  claim: (skip: readonly string[]) => Promise<Run | undefined>,
  corruptRunId: (error: unknown) => string | undefined,
  exclude: readonly string[],
): Promise<{ run?: Run; corrupt: Failure[] }> {
  const corrupt: Failure[] = [];
  const skip = [...exclude];
  for (;;) {
    try {
      const run = await claim(skip);
      return run ? { run, corrupt } : { corrupt };
    } catch (error) {
      const runId = corruptRunId(error);
      if (runId === undefined) throw error;
      corrupt.push(error as Failure);
      skip.push(runId);
    }
  }
}
