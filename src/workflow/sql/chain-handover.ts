/**
 * What a run that continues as new hands over, in the switch's transaction (decision
 * 254): its queued queries and updates move to the successor, which answers them (as its
 * unconsumed signals do, `run-continue.ts`), and its pending decisions — approvals and
 * suspensions its code no longer waits for — are withdrawn: each is closed as rejected
 * and audited (`cancel`), so a later decision on it is refused with `ALREADY_DECIDED`
 * saying why, and the inbox no longer lists it. Nothing is left behind silently.
 */
import { appendAudit } from '../../internal/durable/index.ts';
import type { SqlExecutor } from '../../internal/sql/index.ts';
import type { WorkflowSql } from './store-context.ts';

/** Hands the open work of `runId` over as it continues as new as `successorId`. */
export async function handOver(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
  successorId: string,
): Promise<void> {
  const { t, now } = sql;
  await tx.query(
    `UPDATE ${t('workflow_requests')} SET run_id = ? WHERE run_id = ? AND state = 'open'`,
    [successorId, runId],
  );
  const note = `withdrawn: the run continued as new as "${successorId}"`;
  const open = await tx.query<{ decision_id: string; token_hash: string }>(
    `SELECT decision_id, token_hash FROM ${t('workflow_pending')} WHERE run_id = ? AND decision IS NULL ORDER BY decision_id`,
    [runId],
  );
  for (const pending of open) {
    await tx.query(`UPDATE ${t('workflow_pending')} SET decision = ? WHERE token_hash = ?`, [
      JSON.stringify({ reject: note }),
      pending.token_hash,
    ]);
    await appendAudit(tx, t('workflow_audit'), now, {
      runId,
      action: 'cancel',
      subject: { column: 'decision_id', id: pending.decision_id, toolName: null },
      actor: null,
      note,
    });
  }
}
