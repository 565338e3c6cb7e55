/**
 * Due work of the workflow store: which runs are due, claiming the oldest one (leased in
 * one `UPDATE … RETURNING` that skips rows other workers hold, and skips unreadable rows,
 * as the kernel's `claimSkipping` does), and when the next one falls due.
 *
 * Due work is found from one index, `wake_at`: a runnable run has `wake_at <= now` (new,
 * woken by a signal, cancelled, released: now; sleeping: its timer), a run that waits
 * only for a signal or a decision has none; a run whose worker died is due again once its
 * lease has expired.
 */
import {
  andNotIn,
  claimSkipping,
  leaseExpired,
  oldestUnlocked,
  placeholders,
  takeLeaseSet,
} from '../../internal/durable/index.ts';
import { WorkflowError } from '../errors.ts';
import type { StoredWorkflowRun, WorkflowStore } from '../types.ts';
import { decodeRunRow, type RunRow } from './rows.ts';
import type { WorkflowSql } from './store-context.ts';

/** The due-work operations of the workflow store over `sql`. */
export function runClaims(
  sql: WorkflowSql,
): Pick<WorkflowStore, 'claimNext' | 'dueElsewhere' | 'nextWake'> {
  const { driver, runs, now, schema } = sql;
  const due = `status IN ('running', 'waiting') AND wake_at IS NOT NULL AND wake_at <= ${now}
    AND (lease_owner IS NULL OR ${leaseExpired(driver)})`;
  return {
    async claimNext(owner, leaseMs, workflowIds, exclude = []) {
      await schema();
      if (workflowIds.length === 0) return { corrupt: [] };
      return claimSkipping<StoredWorkflowRun, WorkflowError>(
        (skip) =>
          driver.transaction(async (tx) => {
            const which = `${due} AND workflow_id IN (${placeholders(workflowIds)})${andNotIn('run_id', skip)}`;
            const [row] = await tx.query<RunRow>(
              `UPDATE ${runs} SET ${takeLeaseSet(driver)}
               WHERE ${oldestUnlocked(driver, runs, which, 'wake_at, run_id')}
               AND ${due} RETURNING *`,
              [owner, Math.ceil(leaseMs), ...workflowIds, ...skip],
            );
            return row ? decodeRunRow(row) : undefined; // a corrupt row rolls its lease back
          }),
        (error) =>
          error instanceof WorkflowError && error.code === 'CORRUPT_RUN' ? error.runId : undefined,
        exclude,
      );
    },

    async dueElsewhere(workflowIds) {
      await schema();
      const rows = await driver.query<{ workflow_id: string }>(
        `SELECT DISTINCT workflow_id FROM ${runs} WHERE ${due}${andNotIn('workflow_id', workflowIds)} ORDER BY workflow_id`,
        workflowIds,
      );
      return rows.map((row) => row.workflow_id);
    },

    async nextWake(workflowIds) {
      await schema();
      if (workflowIds.length === 0) return undefined;
      const [row] = await driver.query<{ at: number | string | null }>(
        `SELECT MIN(CASE WHEN lease_owner IS NULL THEN wake_at ELSE lease_expires_at END) AS at FROM ${runs}
         WHERE status IN ('running', 'waiting') AND wake_at IS NOT NULL AND workflow_id IN (${placeholders(workflowIds)})`,
        workflowIds,
      );
      return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
    },
  };
}
