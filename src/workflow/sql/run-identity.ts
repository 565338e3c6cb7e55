/**
 * Worker identities (decision 239): a worker started with `identity` takes it, fenced so
 * that two live processes never hold one, and releases the runs an earlier process of
 * that identity still leases — a restarted worker gets its runs back at once instead of
 * waiting out their leases. Lease owners of an identity's workers are
 * `<identity>/<suffix>`, so its runs are found by that prefix; releasing them changes
 * their lease owner, which fences any late write of the old process.
 *
 * The fence: on PostgreSQL, a session advisory lock on a connection of its own, which the
 * server frees when the holding process dies (its socket closes); on SQLite (one machine),
 * the `workflow_workers` row names the holder's host and process id, and a holder on this
 * host is live while its process is (on another host it is taken as live: refused).
 */
import { hostname } from 'node:os';
import { WorkflowError } from '../errors.ts';
import type { WorkflowStore } from '../types.ts';
import type { WorkflowSql } from './store-context.ts';

/** Owners this process holds an identity for (a second worker of this process is refused). */
const heldHere = new Set<string>();

/** The identity operation of the workflow store over `sql`. */
export function runIdentity(sql: WorkflowSql): Pick<WorkflowStore, 'claimIdentity'> {
  const { driver, t, runs, now, schema } = sql;
  const workers = t('workflow_workers');
  return {
    async claimIdentity(identity, owner, onLost) {
      await schema();
      const lock = driver.sessionLock
        ? await driver.sessionLock(`${workers}:${identity}`, onLost)
        : undefined;
      if (driver.sessionLock && !lock) throw inUse(identity, 'another process');
      try {
        await driver.transaction(async (tx) => {
          const [row] = await tx.query<{ owner: string; host: string; pid: number | string }>(
            `SELECT owner, host, pid FROM ${workers} WHERE identity = ?${driver.forUpdate}`,
            [identity],
          );
          if (!lock && row && row.owner !== owner && holderLives(row)) {
            throw inUse(identity, `process ${row.pid} on ${row.host}`);
          }
          await tx.query(
            `INSERT INTO ${workers} (identity, owner, host, pid, started_at) VALUES (?, ?, ?, ?, ${now})
             ON CONFLICT (identity) DO UPDATE SET owner = excluded.owner, host = excluded.host, pid = excluded.pid, started_at = excluded.started_at`,
            [identity, owner, hostname(), process.pid],
          );
          const prefix = `${identity}/`;
          await tx.query(
            `UPDATE ${runs} SET lease_owner = NULL, lease_expires_at = NULL, wake_at = ${now}, updated_at = ${now}
             WHERE status IN ('running', 'waiting') AND lease_owner IS NOT NULL AND lease_owner <> ?
             AND substr(lease_owner, 1, ?) = ?`,
            [owner, prefix.length, prefix],
          );
        });
      } catch (error) {
        await lock?.release();
        throw error;
      }
      heldHere.add(owner);
      return {
        async release() {
          heldHere.delete(owner);
          await driver.query(`DELETE FROM ${workers} WHERE identity = ? AND owner = ?`, [
            identity,
            owner,
          ]);
          await lock?.release();
        },
      };
    },
  };
}

/** Whether the process a `workflow_workers` row names still lives (SQLite's fence). */
function holderLives(row: { owner: string; host: string; pid: number | string }): boolean {
  if (row.host !== hostname()) return true;
  const pid = Number(row.pid);
  if (pid === process.pid) return heldHere.has(row.owner);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

const inUse = (identity: string, holder: string) =>
  new WorkflowError(
    'IDENTITY_IN_USE',
    `worker identity "${identity}" is held by ${holder}, which is still running; give each live worker its own identity`,
  );
