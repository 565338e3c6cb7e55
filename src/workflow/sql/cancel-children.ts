/**
 * Cancellation reaches children (decision 232): in the transaction that cancels a run,
 * its unfinished descendants whose policy is `cancel` (the default) are cancelled too —
 * children, their children, down to {@link MAX_CHILD_DEPTH} levels — each with a line in
 * its audit trail naming the run whose cancellation reached it. A child whose policy is
 * `abandon` or `wait` is left running, and so are its own children.
 */
import { appendAudit } from '../../internal/durable/index.ts';
import type { SqlExecutor } from '../../internal/sql/index.ts';
import { MAX_CHILD_DEPTH } from '../run-id.ts';
import type { WorkflowActor } from '../types.ts';
import type { WorkflowSql } from './store-context.ts';

/** Cancels, inside `tx`, the descendants of `runId` that its cancellation reaches. */
export async function cancelChildren(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
  actor: WorkflowActor,
): Promise<void> {
  const { runs, now } = sql;
  const reached = `r.status IN ('running', 'waiting') AND COALESCE(r.on_parent_cancel, 'cancel') = 'cancel'`;
  const rows = await tx.query<{ run_id: string; parent_run_id: string; cancel_requested: unknown }>(
    `WITH RECURSIVE reach (run_id, parent_run_id, cancel_requested, depth) AS (
       SELECT r.run_id, r.parent_run_id, r.cancel_requested, 1 FROM ${runs} r WHERE r.parent_run_id = ? AND ${reached}
       UNION ALL
       SELECT r.run_id, r.parent_run_id, r.cancel_requested, reach.depth + 1 FROM ${runs} r
       JOIN reach ON r.parent_run_id = reach.run_id WHERE reach.depth < ? AND ${reached}
     )
     SELECT run_id, parent_run_id, cancel_requested FROM reach ORDER BY depth, run_id`,
    [runId, MAX_CHILD_DEPTH],
  );
  for (const row of rows) {
    if (Number(row.cancel_requested) === 1 || row.cancel_requested === true) continue;
    await tx.query(
      `UPDATE ${runs} SET cancel_requested = 1, wake_at = ${now}, updated_at = ${now} WHERE run_id = ?`,
      [row.run_id],
    );
    await appendAudit(tx, sql.t('workflow_audit'), now, {
      runId: row.run_id,
      action: 'cancel',
      actor: actor.by ?? null,
      note: `its parent run "${row.parent_run_id}" was cancelled${actor.note ? `: ${actor.note}` : ''}`,
    });
  }
}
