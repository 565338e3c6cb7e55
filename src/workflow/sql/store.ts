/**
 * The {@link WorkflowStore} over SQL: one implementation for SQLite and PostgreSQL, whose
 * differences are in the driver.
 *
 * Leases follow the session store's rules (decision 047): a worker writes to a run only
 * through a statement that checks `lease_owner = <it> AND status = 'running'`, so once
 * another worker has taken the run over, the first one's writes change nothing and it
 * learns so from the row count. Every transaction that changes a run takes the run's row
 * first (its lease `UPDATE`, or `SELECT … FOR UPDATE`), then its history or signal rows.
 *
 * Due work is found from one index, `wake_at`: a runnable run has `wake_at <= now` (new,
 * woken by a signal, cancelled, released: now; sleeping: its timer), a run that waits
 * only for a signal or a decision has none. Claiming takes the oldest due row no other
 * transaction holds (`FOR UPDATE SKIP LOCKED` on PostgreSQL) in one `UPDATE … RETURNING`.
 */

import type { Decision } from '../../ai/agent/index.ts';
import {
  mapSqlFailures,
  migrate,
  type SqlDriver,
  type SqlExecutor,
  type SqlFailure,
} from '../../internal/sql/index.ts';
import { hashToken, isToken } from '../../internal/tokens.ts';
import { WorkflowError } from '../errors.ts';
import type {
  HistoryEntry,
  LeaseState,
  RunOutcome,
  StoredWorkflowRun,
  WaitingOn,
  WorkflowAuditEntry,
  WorkflowListFilter,
  WorkflowStore,
} from '../types.ts';
import { WORKFLOW_SCHEMA, type WorkflowTable } from './migrations.ts';
import {
  decodeHistoryRow,
  decodePendingRow,
  decodeRunRow,
  encodeEntry,
  type HistoryRow,
  type PendingRow,
  RECORD_FORMAT,
  type RunRow,
} from './rows.ts';

const LOST: LeaseState = { held: false, cancelRequested: false };

/** A {@link WorkflowStore} over any SQL database the driver speaks; schema migrated on first use. */
export function sqlWorkflowStore(sqlDriver: SqlDriver): WorkflowStore {
  const driver = mapSqlFailures(sqlDriver as SqlDriver<WorkflowTable>, workflowErrorOf);
  const t = (name: WorkflowTable) => driver.table(name);
  const now = driver.nowMs;
  const runs = t('workflow_runs');
  let ready: Promise<void> | undefined;
  const schema = () => {
    ready ??= migrate(driver, WORKFLOW_SCHEMA).catch((error) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
  const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');
  const due = `status IN ('running', 'waiting') AND wake_at IS NOT NULL AND wake_at <= ${now}
    AND (lease_owner IS NULL OR lease_expires_at < ${now})`;

  /** Extends `owner`'s lease inside `tx`; what it learns about the run. */
  const extend = async (tx: SqlExecutor, runId: string, owner: string, leaseMs: number) => {
    const [row] = await tx.query<{ cancel_requested: number | string | boolean }>(
      `UPDATE ${runs} SET lease_expires_at = ${now} + ?, updated_at = ${now}
       WHERE run_id = ? AND lease_owner = ? AND status = 'running' RETURNING cancel_requested`,
      [Math.ceil(leaseMs), runId, owner],
    );
    if (!row) return LOST;
    return {
      held: true,
      cancelRequested: Number(row.cancel_requested) === 1 || row.cancel_requested === true,
    };
  };
  const upsert = (tx: SqlExecutor, runId: string, entry: HistoryEntry) =>
    tx.query(
      `INSERT INTO ${t('workflow_history')} (run_id, entry_id, seq, body) VALUES (?, ?, ?, ?)
       ON CONFLICT (run_id, entry_id) DO UPDATE SET body = excluded.body`,
      [runId, entry.id, entry.seq, encodeEntry(entry)],
    );
  const lockRun = async (tx: SqlExecutor, runId: string) => {
    const [row] = await tx.query<RunRow>(
      `SELECT * FROM ${runs} WHERE run_id = ?${driver.forUpdate}`,
      [runId],
    );
    if (!row) throw new WorkflowError('NOT_FOUND', `no workflow run with id "${runId}"`, { runId });
    return decodeRunRow(row);
  };
  const unfinished = (run: StoredWorkflowRun, what: string) => {
    if (run.status === 'done' || run.status === 'error' || run.status === 'cancelled') {
      throw new WorkflowError(
        'RUN_FINISHED',
        `workflow run "${run.runId}" is ${run.status === 'done' ? 'done' : run.status === 'error' ? 'failed (error)' : 'cancelled'}; it takes no more ${what}`,
        { runId: run.runId },
      );
    }
  };

  const store: WorkflowStore = {
    async create({ runId, workflowId, key, input, parentRunId }) {
      await schema();
      try {
        const [row] = await driver.query<RunRow>(
          `INSERT INTO ${runs} (run_id, workflow_id, run_key, parent_run_id, status, format, input, wake_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, 'running', ?, ?, ${now}, ${now}, ${now}) RETURNING *`,
          [runId, workflowId, key ?? null, parentRunId ?? null, RECORD_FORMAT, input ?? null],
        );
        return { run: decodeRunRow(row), created: true };
      } catch (error) {
        if (!driver.isUniqueViolation(error)) throw error;
        const [row] = await driver.query<RunRow>(
          key === undefined
            ? `SELECT * FROM ${runs} WHERE run_id = ?`
            : `SELECT * FROM ${runs} WHERE (workflow_id = ? AND run_key = ?) OR run_id = ? ORDER BY created_at LIMIT 1`,
          key === undefined ? [runId] : [workflowId, key, runId],
        );
        if (!row) throw error;
        return { run: decodeRunRow(row), created: false };
      }
    },

    async get(runId) {
      await schema();
      const [row] = await driver.query<RunRow>(`SELECT * FROM ${runs} WHERE run_id = ?`, [runId]);
      return row ? decodeRunRow(row) : undefined;
    },

    async list(filter: WorkflowListFilter = {}) {
      await schema();
      const rows = await driver.query<RunRow>(
        `SELECT * FROM ${runs} WHERE (CAST(? AS TEXT) IS NULL OR status = ?) AND (CAST(? AS TEXT) IS NULL OR workflow_id = ?)
         ORDER BY created_at, run_id LIMIT ?`,
        [
          filter.status ?? null,
          filter.status ?? null,
          filter.workflowId ?? null,
          filter.workflowId ?? null,
          filter.limit ?? 1000,
        ],
      );
      return rows.map(decodeRunRow);
    },

    async history(runId) {
      await schema();
      const rows = await driver.query<HistoryRow>(
        `SELECT * FROM ${t('workflow_history')} WHERE run_id = ? ORDER BY seq, entry_id`,
        [runId],
      );
      return rows.map(decodeHistoryRow);
    },

    async claimNext(owner, leaseMs, workflowIds, exclude = []) {
      await schema();
      const corrupt: WorkflowError[] = [];
      if (workflowIds.length === 0) return { corrupt };
      const skip = [...exclude];
      for (;;) {
        const notIn = skip.length > 0 ? ` AND run_id NOT IN (${placeholders(skip)})` : '';
        try {
          const run = await driver.transaction(async (tx) => {
            const [row] = await tx.query<RunRow>(
              `UPDATE ${runs} SET status = 'running', lease_owner = ?, lease_expires_at = ${now} + ?, updated_at = ${now}
               WHERE run_id = (SELECT run_id FROM ${runs} WHERE ${due} AND workflow_id IN (${placeholders(workflowIds)})${notIn}
                 ORDER BY wake_at, run_id LIMIT 1${driver.forUpdateSkipLocked})
               AND ${due} RETURNING *`,
              [owner, Math.ceil(leaseMs), ...workflowIds, ...skip],
            );
            return row ? decodeRunRow(row) : undefined; // a corrupt row rolls its lease back
          });
          return run ? { run, corrupt } : { corrupt };
        } catch (error) {
          if (!(error instanceof WorkflowError && error.code === 'CORRUPT_RUN' && error.runId))
            throw error;
          corrupt.push(error);
          skip.push(error.runId);
        }
      }
    },

    async dueElsewhere(workflowIds) {
      await schema();
      const notIn =
        workflowIds.length > 0 ? ` AND workflow_id NOT IN (${placeholders(workflowIds)})` : '';
      const rows = await driver.query<{ workflow_id: string }>(
        `SELECT DISTINCT workflow_id FROM ${runs} WHERE ${due}${notIn} ORDER BY workflow_id`,
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

    async record(runId, owner, entry, leaseMs) {
      await schema();
      return driver.transaction(async (tx) => {
        const lease = await extend(tx, runId, owner, leaseMs);
        if (lease.held) await upsert(tx, runId, entry);
        return lease;
      });
    },

    async consumeSignal(runId, owner, entry, leaseMs) {
      await schema();
      return driver.transaction(async (tx) => {
        const lease = await extend(tx, runId, owner, leaseMs);
        if (!lease.held) return { ...lease, consumed: false };
        const [signal] = await tx.query<{ id: number | string; payload: string | null }>(
          `SELECT id, payload FROM ${t('workflow_signals')} WHERE run_id = ? AND name = ? AND consumed_by IS NULL
           ORDER BY id LIMIT 1`,
          [runId, entry.name],
        );
        if (!signal) return { ...lease, consumed: false };
        await tx.query(`UPDATE ${t('workflow_signals')} SET consumed_by = ? WHERE id = ?`, [
          entry.id,
          signal.id,
        ]);
        const done: HistoryEntry = { ...entry, state: 'done', endedAt: Date.now() };
        if (signal.payload !== null) done.value = signal.payload;
        else delete done.value;
        await upsert(tx, runId, done);
        return { ...lease, consumed: true, entry: done };
      });
    },

    async renew(runId, owner, leaseMs) {
      await schema();
      return extend(driver, runId, owner, leaseMs);
    },

    async park(runId, owner, waiting: WaitingOn) {
      await schema();
      return driver.transaction(async (tx) => {
        const [row] = await tx.query<RunRow>(
          `SELECT * FROM ${runs} WHERE run_id = ? AND lease_owner = ? AND status = 'running'${driver.forUpdate}`,
          [runId, owner],
        );
        if (!row) return 'lost' as const;
        if (Number(row.cancel_requested) === 1 || row.cancel_requested === true)
          return 'again' as const;
        if (waiting.timerDueAt !== undefined && waiting.timerDueAt <= Date.now())
          return 'again' as const;
        if (waiting.signals.length > 0) {
          const [queued] = await tx.query(
            `SELECT id FROM ${t('workflow_signals')} WHERE run_id = ? AND consumed_by IS NULL AND name IN (${placeholders(waiting.signals)}) LIMIT 1`,
            [runId, ...waiting.signals],
          );
          if (queued) return 'again' as const;
        }
        if (waiting.children && waiting.children.length > 0) {
          const [ended] = await tx.query(
            `SELECT run_id FROM ${runs} WHERE run_id IN (${placeholders(waiting.children)}) AND status IN ('done', 'error', 'cancelled') LIMIT 1`,
            waiting.children,
          );
          if (ended) return 'again' as const;
        }
        await tx.query(
          `UPDATE ${runs} SET status = 'waiting', waiting = ?, wake_at = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}
           WHERE run_id = ?`,
          [JSON.stringify(waiting), waiting.timerDueAt ?? null, runId],
        );
        return 'parked' as const;
      });
    },

    async finish(runId, owner, outcome: RunOutcome) {
      await schema();
      return driver.transaction(async (tx) => {
        const [row] = await tx.query<{ parent_run_id: string | null }>(
          `UPDATE ${runs} SET status = ?, output = ?, error = ?, waiting = NULL, wake_at = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}
           WHERE run_id = ? AND lease_owner = ? AND status = 'running' RETURNING parent_run_id`,
          [
            outcome.status,
            outcome.status === 'done' ? (outcome.output ?? null) : null,
            outcome.status !== 'done' && outcome.error ? JSON.stringify(outcome.error) : null,
            runId,
            owner,
          ],
        );
        if (!row) return false;
        if (row.parent_run_id !== null) {
          // A child's end wakes the parent that waits for it.
          await tx.query(
            `UPDATE ${runs} SET wake_at = ${now}, updated_at = ${now} WHERE run_id = ? AND status = 'waiting'`,
            [row.parent_run_id],
          );
        }
        return true;
      });
    },

    async release(runId, owner) {
      await schema();
      await driver.query(
        `UPDATE ${runs} SET lease_owner = NULL, lease_expires_at = NULL, wake_at = ${now}, updated_at = ${now}
         WHERE run_id = ? AND lease_owner = ? AND status = 'running'`,
        [runId, owner],
      );
    },

    async signal(runId, name, payload, maxQueued) {
      await schema();
      await driver.transaction(async (tx) => {
        const run = await lockRun(tx, runId);
        unfinished(run, 'signals');
        const [count] = await tx.query<{ n: number | string }>(
          `SELECT COUNT(*) AS n FROM ${t('workflow_signals')} WHERE run_id = ? AND consumed_by IS NULL`,
          [runId],
        );
        if (Number(count.n) >= maxQueued) {
          throw new WorkflowError(
            'SIGNAL_QUEUE_FULL',
            `workflow run "${runId}" already holds ${maxQueued} signals it has not consumed (maxQueuedSignals); signal "${name}" was not queued`,
            { runId },
          );
        }
        await tx.query(
          `INSERT INTO ${t('workflow_signals')} (run_id, name, payload, created_at) VALUES (?, ?, ?, ${now})`,
          [runId, name, payload ?? null],
        );
        if (run.status === 'waiting' && run.waiting?.signals.includes(name)) {
          await tx.query(
            `UPDATE ${runs} SET wake_at = ${now}, updated_at = ${now} WHERE run_id = ?`,
            [runId],
          );
        }
      });
    },

    async cancel(runId, actor = {}) {
      await schema();
      return driver.transaction(async (tx) => {
        const run = await lockRun(tx, runId);
        unfinished(run, 'cancellations');
        await tx.query(
          `INSERT INTO ${t('workflow_audit')} (run_id, at, action, actor, note) VALUES (?, ${now}, 'cancel', ?, ?)`,
          [runId, actor.by ?? null, actor.note ?? null],
        );
        const [row] = await tx.query<RunRow>(
          `UPDATE ${runs} SET cancel_requested = 1, wake_at = ${now}, updated_at = ${now} WHERE run_id = ? RETURNING *`,
          [runId],
        );
        return decodeRunRow(row);
      });
    },

    async suspend(runId, owner, entry, pending, leaseMs) {
      await schema();
      return driver.transaction(async (tx) => {
        const lease = await extend(tx, runId, owner, leaseMs);
        if (!lease.held) return lease;
        await upsert(tx, runId, entry);
        for (const p of pending) {
          await tx.query(
            `INSERT INTO ${t('workflow_pending')} (token_hash, run_id, decision_id, call, created_at) VALUES (?, ?, ?, ?, ${now})
             ON CONFLICT (run_id, decision_id) DO NOTHING`,
            [p.tokenHash, runId, p.decisionId, JSON.stringify(p.call)],
          );
        }
        return lease;
      });
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
      const rows = await driver.query<PendingRow>(
        `SELECT p.* FROM ${t('workflow_pending')} p JOIN ${runs} r ON r.run_id = p.run_id
         WHERE p.decision IS NULL AND r.status IN ('running', 'waiting') AND (CAST(? AS TEXT) IS NULL OR p.run_id = ?)
         ORDER BY p.created_at, p.run_id, p.decision_id`,
        [filter.runId ?? null, filter.runId ?? null],
      );
      return rows.map(decodePendingRow);
    },

    async decide(ref, decision, actor) {
      await schema();
      const kind = decisionKind(decision);
      return driver.transaction(async (tx) => {
        const [found] =
          typeof ref === 'string'
            ? isToken(ref)
              ? await tx.query<PendingRow>(
                  `SELECT * FROM ${t('workflow_pending')} WHERE token_hash = ?`,
                  [hashToken(ref)],
                )
              : []
            : await tx.query<PendingRow>(
                `SELECT * FROM ${t('workflow_pending')} WHERE run_id = ? AND decision_id = ?`,
                [String(ref?.runId), String(ref?.decisionId)],
              );
        if (!found) {
          throw new WorkflowError(
            'NOT_FOUND',
            typeof ref === 'string'
              ? 'no pending decision has this token'
              : `run "${ref?.runId}" has no pending decision "${ref?.decisionId}"`,
          );
        }
        const run = await lockRun(tx, found.run_id);
        // Read again under the run's lock: a racing decision committed meanwhile is seen here.
        const [row] = await tx.query<PendingRow>(
          `SELECT * FROM ${t('workflow_pending')} WHERE token_hash = ?`,
          [found.token_hash],
        );
        const pending = decodePendingRow(row);
        const where = `decision "${pending.decisionId}" of workflow run "${pending.runId}"`;
        if (pending.decision) {
          const [last] = await tx.query<{
            action: string;
            actor: string | null;
            at: number | string;
          }>(
            `SELECT action, actor, at FROM ${t('workflow_audit')} WHERE run_id = ? AND decision_id = ? ORDER BY id DESC LIMIT 1`,
            [pending.runId, pending.decisionId],
          );
          const how = last
            ? ` (${last.action}${last.actor ? ` by ${last.actor}` : ''} at ${new Date(Number(last.at)).toISOString()})`
            : '';
          throw new WorkflowError(
            'ALREADY_DECIDED',
            `${where} was already decided${how}; a token is single-use`,
            {
              runId: pending.runId,
            },
          );
        }
        if (run.status !== 'running' && run.status !== 'waiting') {
          throw new WorkflowError(
            'NOT_PENDING',
            `${where} is no longer waited for (the run is ${run.status})`,
            {
              runId: pending.runId,
            },
          );
        }
        const allowed =
          pending.call.kind === 'approval' ? ['approve', 'reject'] : ['resume', 'reject'];
        if (!allowed.includes(kind)) {
          throw new WorkflowError(
            'INVALID_ARGUMENT',
            `${where} is ${pending.call.kind === 'approval' ? 'an approval' : 'a suspension'}: expected ${allowed.join(' or ')}, received ${kind}`,
            { runId: pending.runId },
          );
        }
        await tx.query(`UPDATE ${t('workflow_pending')} SET decision = ? WHERE token_hash = ?`, [
          JSON.stringify(decision),
          row.token_hash,
        ]);
        await tx.query(
          `INSERT INTO ${t('workflow_audit')} (run_id, at, action, decision_id, tool_name, actor, note) VALUES (?, ${now}, ?, ?, ?, ?, ?)`,
          [
            pending.runId,
            kind,
            pending.decisionId,
            pending.call.toolName ?? null,
            actor.by ?? null,
            'reject' in decision ? decision.reject : (actor.note ?? null),
          ],
        );
        if (run.status === 'waiting' && run.waiting?.decisions.includes(pending.decisionId)) {
          await tx.query(
            `UPDATE ${runs} SET wake_at = ${now}, updated_at = ${now} WHERE run_id = ?`,
            [pending.runId],
          );
        }
        return { ...pending, decision };
      });
    },

    async audit(runId) {
      await schema();
      const rows = await driver.query<{
        at: number | string;
        action: WorkflowAuditEntry['action'];
        decision_id: string | null;
        tool_name: string | null;
        actor: string | null;
        note: string | null;
      }>(`SELECT * FROM ${t('workflow_audit')} WHERE run_id = ? ORDER BY id`, [runId]);
      return rows.map((row) => {
        const entry: WorkflowAuditEntry = {
          at: new Date(Number(row.at)).toISOString(),
          action: row.action,
        };
        if (row.decision_id !== null) entry.decisionId = row.decision_id;
        if (row.tool_name !== null) entry.toolName = row.tool_name;
        if (row.actor !== null) entry.by = row.actor;
        if (row.note !== null) entry.note = row.note;
        return entry;
      });
    },

    close: () => driver.close(),
  };
  return store;
}

/** The workflow error for a failure of the shared SQL layer: the same code, `UNAVAILABLE` as `STORE_UNAVAILABLE`. */
const workflowErrorOf = (failure: SqlFailure): WorkflowError =>
  new WorkflowError(
    failure.code === 'UNAVAILABLE' ? 'STORE_UNAVAILABLE' : failure.code,
    failure.message,
    failure.cause === undefined ? undefined : { cause: failure.cause },
  );

/** Which decision `decision` is; `INVALID_ARGUMENT` for anything else. */
function decisionKind(decision: Decision): 'approve' | 'reject' | 'resume' {
  if (decision && typeof decision === 'object') {
    if ('approve' in decision && decision.approve === true) return 'approve';
    if ('reject' in decision && typeof decision.reject === 'string') return 'reject';
    if ('resume' in decision) return 'resume';
  }
  throw new WorkflowError(
    'INVALID_ARGUMENT',
    'expected a decision { approve: true }, { reject: "reason" } or { resume: value }',
  );
}
