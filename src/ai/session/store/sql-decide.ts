/**
 * Recording a decision in the SQL store: once per pending call, under the run's lock.
 *
 * Which copy of a pending call is authoritative. A suspended run has its pending calls
 * twice: in its state JSON (`state.turn.pending`, what the agent waits for) and as
 * `fino_pending` rows of the current round (see `sql-rows.ts`). The rows are authoritative
 * for tokens and decisions: a decision is taken, refused as `ALREADY_DECIDED` or
 * `NOT_PENDING`, and stored only there, under the run's row lock, and the state JSON is
 * not touched. The state is authoritative for what the agent still has to apply: when a
 * worker continues the run, it applies the recorded decisions whose calls are still in
 * `state.turn.pending` (a decision whose call has left it was applied before a later
 * checkpoint, and is not applied twice).
 */

import {
  alreadyDecidedMessage,
  appendAudit,
  decisionAction,
  findPendingRow,
} from '../../../internal/durable/index.ts';
import type { SqlExecutor } from '../../../internal/sql/index.ts';
import type { Decision } from '../../agent/index.ts';
import { SessionError } from '../errors.ts';
import type { Actor, PendingRef, StoredRun } from '../types.ts';
import { checkDecisionFits, decisionNote, type PendingRow, type RunRow } from './codec.ts';
import type { SessionDriver } from './migrations.ts';
import { leased, takeLease } from './sql-lease.ts';
import { currentPendingSql, loadRun, nextRevision, toJson } from './sql-rows.ts';

/**
 * Records `decision` on the pending call `ref` names (see `Store.decide`): when it was
 * the run's last undecided call the run becomes `ready`, or with `claim` is leased at once.
 */
export async function decidePending(
  driver: SessionDriver,
  ref: PendingRef,
  decision: Decision,
  actor: Actor,
  claim: { owner: string; leaseMs: number } | undefined,
): Promise<{ run: StoredRun; claimed: boolean }> {
  const { table: t, nowMs: now } = driver;
  const decisionText = toJson(decision, 'decision');
  return driver.transaction(async (tx) => {
    const found = await findPending(driver, tx, ref);
    const [row] = await tx.query<RunRow>(
      `SELECT * FROM ${t('runs')} WHERE run_id = ?${driver.forUpdate}`,
      [found.run_id],
    );
    // Read under the run's lock: a racing decision committed meanwhile is seen here.
    const run = await loadRun(tx, t, row); // and an unreadable run takes no decision
    const current = run.pending.find((p) => p.tokenHash === found.token_hash);
    const where = `tool call "${found.tool_call_id}" of run "${found.run_id}"`;
    if (current ? current.decision !== undefined : found.decision !== null) {
      const subject = { column: 'tool_call_id', id: found.tool_call_id } as const;
      const message = await alreadyDecidedMessage(tx, t('audit'), where, found.run_id, subject);
      throw new SessionError('ALREADY_DECIDED', message, found.run_id);
    }
    if (run.status !== 'suspended' || !current) {
      throw new SessionError(
        'NOT_PENDING',
        `${where} is no longer waiting for a decision (the run is ${run.status})`,
        found.run_id,
      );
    }
    checkDecisionFits(current.call, decision, where);
    await tx.query(`UPDATE ${t('pending')} SET decision = ? WHERE token_hash = ?`, [
      decisionText,
      current.tokenHash,
    ]);
    await appendAudit(tx, t('audit'), now, {
      runId: run.runId,
      action: decisionAction(decision),
      subject: {
        column: 'tool_call_id',
        id: current.call.toolCallId,
        toolName: current.call.toolName ?? null,
      },
      actor: actor.by ?? null,
      note: decisionNote(decision, actor.note) ?? null,
    });
    current.decision = decision;
    if (run.pending.some((p) => p.decision === undefined)) return { run, claimed: false };
    if (claim) {
      return {
        run: leased(run, await takeLease(driver, tx, run.runId, claim.owner, claim.leaseMs)),
        claimed: true,
      };
    }
    const [ready] = await tx.query<RunRow>(
      `UPDATE ${t('runs')} SET status = 'ready', updated_at = ${now}, revision = ${nextRevision(driver)} WHERE run_id = ? RETURNING updated_at, revision`,
      [run.runId],
    );
    return {
      run: {
        ...run,
        status: 'ready',
        updatedAt: Number(ready.updated_at),
        revision: Number(ready.revision),
      },
      claimed: false,
    };
  });
}

/**
 * The pending row `ref` names, read without a lock: by token (of any round, so that a
 * spent token gets a precise refusal) or by run and call id (current round only).
 */
async function findPending(
  driver: SessionDriver,
  tx: SqlExecutor,
  ref: PendingRef,
): Promise<PendingRow> {
  const t = driver.table;
  if (
    typeof ref !== 'string' &&
    (ref === null ||
      typeof ref !== 'object' ||
      typeof ref.runId !== 'string' ||
      typeof ref.toolCallId !== 'string')
  ) {
    throw new SessionError(
      'INVALID_ARGUMENT',
      'expected a token string or { runId, toolCallId } naming a pending call',
    );
  }
  const row = await findPendingRow<PendingRow>(
    tx,
    typeof ref === 'string' ? ref : { runId: ref.runId, id: ref.toolCallId },
    { table: t('pending'), byIdSql: currentPendingSql(t, 'p.run_id = ? AND p.tool_call_id = ?') },
  );
  if (row) return row;
  if (typeof ref === 'string')
    throw new SessionError('NOT_FOUND', 'no pending call has this token');
  throw new SessionError(
    'NOT_FOUND',
    `run "${ref.runId}" has no pending call "${ref.toolCallId}"`,
    ref.runId,
  );
}
