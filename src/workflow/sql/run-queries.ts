/**
 * The workflow store's runs as the lifecycle API reads and changes them outside a
 * lease: create (idempotent by key), get, list, history, signal, cancel, audit.
 */
import { appendAudit, readAudit } from '../../internal/durable/index.ts';
import { WorkflowError } from '../errors.ts';
import type { WorkflowAuditEntry, WorkflowListFilter, WorkflowStore } from '../types.ts';
import { cancelChildren } from './cancel-children.ts';
import {
  decodeHistoryRow,
  decodeListedRunRow,
  decodeRunRow,
  type HistoryRow,
  RECORD_FORMAT,
  type RunRow,
} from './rows.ts';
import { checkUnfinished, lockRun, type WorkflowSql } from './store-context.ts';

/** The run operations of the workflow store over `sql`. */
export function runQueries(
  sql: WorkflowSql,
): Pick<WorkflowStore, 'create' | 'get' | 'list' | 'history' | 'signal' | 'cancel' | 'audit'> {
  const { driver, t, runs, now, schema } = sql;
  return {
    async create({ runId, workflowId, key, input, parentRunId, signals, onParentCancel }) {
      await schema();
      try {
        const [row] = await driver.query<RunRow>(
          `INSERT INTO ${runs} (run_id, workflow_id, run_key, parent_run_id, on_parent_cancel, signals, status, format, input, wake_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ${now}, ${now}, ${now}) RETURNING *`,
          [
            runId,
            workflowId,
            key ?? null,
            parentRunId ?? null,
            onParentCancel ?? null,
            signals === undefined ? null : JSON.stringify(signals),
            RECORD_FORMAT,
            input ?? null,
          ],
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
      const { status = null, workflowId = null, limit = 1000 } = filter;
      const rows = await driver.query<RunRow>(
        `SELECT * FROM ${runs} WHERE (CAST(? AS TEXT) IS NULL OR status = ?) AND (CAST(? AS TEXT) IS NULL OR workflow_id = ?)
         ORDER BY created_at, run_id LIMIT ?`,
        [status, status, workflowId, workflowId, limit],
      );
      return rows.map(decodeListedRunRow);
    },

    async history(runId) {
      await schema();
      const rows = await driver.query<HistoryRow>(
        `SELECT * FROM ${t('workflow_history')} WHERE run_id = ? ORDER BY seq, entry_id`,
        [runId],
      );
      return rows.map(decodeHistoryRow);
    },

    async signal(runId, name, payload, maxQueued) {
      await schema();
      await driver.transaction(async (tx) => {
        const run = await lockRun(sql, tx, runId);
        checkUnfinished(run, 'signals');
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
        const run = await lockRun(sql, tx, runId);
        checkUnfinished(run, 'cancellations');
        await appendAudit(tx, t('workflow_audit'), now, {
          runId,
          action: 'cancel',
          actor: actor.by ?? null,
          note: actor.note ?? null,
        });
        const [row] = await tx.query<RunRow>(
          `UPDATE ${runs} SET cancel_requested = 1, wake_at = ${now}, updated_at = ${now} WHERE run_id = ? RETURNING *`,
          [runId],
        );
        await cancelChildren(sql, tx, runId, actor);
        return decodeRunRow(row);
      });
    },

    async audit(runId) {
      await schema();
      const subject = { column: 'decision_id', key: 'decisionId' } as const;
      return readAudit<WorkflowAuditEntry>(driver, t('workflow_audit'), runId, subject);
    },
  };
}
