/**
 * The workflow store's decision code: parking a run on pending decisions, reading them,
 * and taking one — once, under the run's lock, audited. Tokens, the rule of which
 * decision fits which call, and the audit trail are the kernel's
 * (`src/internal/durable/`); this file keeps the workflow's tables and messages.
 */
import type { Decision } from '../../ai/agent/index.ts';
import {
  alreadyDecidedMessage,
  appendAudit,
  decisionAction,
  findPendingRow,
  fittingActions,
  isDecision,
  placeholders,
} from '../../internal/durable/index.ts';
import type { SqlExecutor } from '../../internal/sql/index.ts';
import { WorkflowError } from '../errors.ts';
import type { DecisionRef, StoredPending, WorkflowActor, WorkflowStore } from '../types.ts';
import { decodePendingRow, type PendingRow } from './rows.ts';
import { extendLease } from './run-leases.ts';
import { lockRun, upsertEntry, type WorkflowSql } from './store-context.ts';

/** The decision operations of the workflow store over `sql`. */
export function runDecisions(
  sql: WorkflowSql,
): Pick<WorkflowStore, 'suspend' | 'decisions' | 'pending' | 'decide'> {
  const { driver, t, runs, now, schema } = sql;
  return {
    async suspend(runId, owner, entry, pending, leaseMs) {
      await schema();
      return driver.transaction(
        async (tx) => {
          const lease = await extendLease(sql, tx, runId, owner, leaseMs);
          if (!lease.held) return lease;
          await upsertEntry(sql, tx, runId, entry);
          for (const p of pending) {
            await tx.query(
              `INSERT INTO ${t('workflow_pending')} (token_hash, run_id, decision_id, call, created_at) VALUES (?, ?, ?, ?, ${now})
             ON CONFLICT (run_id, decision_id) DO NOTHING`,
              [p.tokenHash, runId, p.decisionId, JSON.stringify(p.call)],
            );
          }
          return lease;
        },
        { idempotent: true },
      ); // a second run rewrites the entry and finds its pending rows (decision 170)
    },

    async decisions(runId, decisionIds) {
      await schema();
      const found = new Map<string, Decision>();
      if (decisionIds.length === 0) return found;
      const rows = await driver.query<PendingRow>(
        `SELECT * FROM ${t('workflow_pending')} WHERE run_id = ? AND decision IS NOT NULL AND decision_id IN (${placeholders(decisionIds)})`,
        [runId, ...decisionIds],
      );
      for (const row of rows) found.set(row.decision_id, JSON.parse(row.decision!) as Decision);
      return found;
    },

    async pending(filter = {}) {
      await schema();
      const rows = await driver.query<PendingRow & { workflow_id: string }>(
        `SELECT p.*, r.workflow_id FROM ${t('workflow_pending')} p JOIN ${runs} r ON r.run_id = p.run_id
         WHERE p.decision IS NULL AND r.status IN ('running', 'waiting') AND (CAST(? AS TEXT) IS NULL OR p.run_id = ?)
         ORDER BY p.created_at, p.run_id, p.decision_id`,
        [filter.runId ?? null, filter.runId ?? null],
      );
      return rows.map(decodePendingRow);
    },

    async decide(ref, decision, actor) {
      await schema();
      if (!isDecision(decision)) {
        throw new WorkflowError(
          'INVALID_ARGUMENT',
          'expected a decision { approve: true }, { reject: "reason" } or { resume: value }',
        );
      }
      return driver.transaction((tx) => decideOnce(sql, tx, ref, decision, actor));
    },
  };
}

/** Takes `decision` on the pending decision `ref` names, inside `tx`: see `WorkflowStore.decide`. */
async function decideOnce(
  sql: WorkflowSql,
  tx: SqlExecutor,
  ref: DecisionRef,
  decision: Decision,
  actor: WorkflowActor,
): Promise<StoredPending> {
  const { t, runs, now } = sql;
  const pendingTable = t('workflow_pending');
  const found = await findPendingRow<PendingRow>(
    tx,
    typeof ref === 'string' ? ref : { runId: String(ref?.runId), id: String(ref?.decisionId) },
    {
      table: pendingTable,
      byIdSql: `SELECT * FROM ${pendingTable} WHERE run_id = ? AND decision_id = ?`,
    },
  );
  if (!found) {
    throw new WorkflowError(
      'NOT_FOUND',
      typeof ref === 'string'
        ? 'no pending decision has this token'
        : `run "${ref?.runId}" has no pending decision "${ref?.decisionId}"`,
    );
  }
  const run = await lockRun(sql, tx, found.run_id);
  // Read again under the run's lock: a racing decision committed meanwhile is seen here.
  const [row] = await tx.query<PendingRow>(`SELECT * FROM ${pendingTable} WHERE token_hash = ?`, [
    found.token_hash,
  ]);
  const pending = decodePendingRow({ ...row, workflow_id: run.workflowId });
  const { runId, decisionId } = pending;
  const where = `decision "${decisionId}" of workflow run "${runId}"`;
  if (pending.decision) {
    const subject = { column: 'decision_id', id: decisionId } as const;
    const message = await alreadyDecidedMessage(tx, t('workflow_audit'), where, runId, subject);
    throw new WorkflowError('ALREADY_DECIDED', message, { runId });
  }
  if (run.status !== 'running' && run.status !== 'waiting') {
    throw new WorkflowError(
      'NOT_PENDING',
      `${where} is no longer waited for (the run is ${run.status})`,
      { runId },
    );
  }
  const action = decisionAction(decision);
  const allowed = fittingActions(pending.kind);
  if (!allowed.includes(action)) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `${where} is ${pending.kind === 'approval' ? 'an approval' : 'a suspension'}: expected ${allowed.join(' or ')}, received ${action}`,
      { runId },
    );
  }
  await tx.query(`UPDATE ${pendingTable} SET decision = ? WHERE token_hash = ?`, [
    JSON.stringify(decision),
    row.token_hash,
  ]);
  await appendAudit(tx, t('workflow_audit'), now, {
    runId,
    action,
    subject: { column: 'decision_id', id: decisionId, toolName: pending.toolName ?? null },
    actor: actor.by ?? null,
    note: 'reject' in decision ? decision.reject : (actor.note ?? null),
  });
  if (run.status === 'waiting' && run.waiting?.decisions.includes(decisionId)) {
    await tx.query(`UPDATE ${runs} SET wake_at = ${now}, updated_at = ${now} WHERE run_id = ?`, [
      runId,
    ]);
  }
  return { ...pending, decision };
}
