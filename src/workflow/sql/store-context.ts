/**
 * What every part of the workflow store shares: its driver (over the workflow tables,
 * failures mapped to `WorkflowError`), its lazy schema, and the few statements several
 * parts run — locking a run's row, refusing a finished run, writing a history entry.
 */
import type { SqlDriver, SqlExecutor } from '../../internal/sql/index.ts';
import { WorkflowError } from '../errors.ts';
import type { HistoryEntry, StoredWorkflowRun } from '../types.ts';
import type { WorkflowTable } from './migrations.ts';
import { decodeRunRow, encodeEntry, type RunRow } from './rows.ts';

/** The workflow store's database, as each of its parts reaches it. */
export interface WorkflowSql {
  driver: SqlDriver<WorkflowTable>;
  /** The SQL name of a workflow table. */
  t: (name: WorkflowTable) => string;
  /** The SQL name of `workflow_runs`. */
  runs: string;
  /** The database's now, in epoch milliseconds. */
  now: string;
  /** Awaited by every operation first: the schema, migrated once. */
  schema: () => Promise<void>;
}

/** Locks the run's row inside `tx` and decodes it; `NOT_FOUND` when there is none. */
export async function lockRun(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
): Promise<StoredWorkflowRun> {
  const [row] = await tx.query<RunRow>(
    `SELECT * FROM ${sql.runs} WHERE run_id = ?${sql.driver.forUpdate}`,
    [runId],
  );
  if (!row) throw new WorkflowError('NOT_FOUND', `no workflow run with id "${runId}"`, { runId });
  return decodeRunRow(row);
}

/** `RUN_FINISHED` when the run is done, failed, cancelled or continued as new: it takes no more `what`. */
export function checkUnfinished(run: StoredWorkflowRun, what: string): void {
  if (run.status === 'continued') throw continuedRun(run, what);
  if (run.status === 'done' || run.status === 'error' || run.status === 'cancelled') {
    throw new WorkflowError(
      'RUN_FINISHED',
      `workflow run "${run.runId}" is ${run.status === 'done' ? 'done' : run.status === 'error' ? 'failed (error)' : 'cancelled'}; it takes no more ${what}`,
      { runId: run.runId },
    );
  }
}

/** `RUN_FINISHED` for a run that continued as new: what it is sent goes to the last run of its chain (`follow-chain.ts`). */
const continuedRun = (run: StoredWorkflowRun, what: string): WorkflowError =>
  new WorkflowError(
    'RUN_FINISHED',
    `workflow run "${run.runId}" continued as new in run "${run.continuedTo}"; it takes no more ${what}`,
    { runId: run.runId },
  );

/** Writes a history entry, or rewrites it (a retried step's attempts, a wait that ended). */
export const upsertEntry = (
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
  entry: HistoryEntry,
): Promise<unknown> =>
  tx.query(
    `INSERT INTO ${sql.t('workflow_history')} (run_id, entry_id, seq, body) VALUES (?, ?, ?, ?)
     ON CONFLICT (run_id, entry_id) DO UPDATE SET body = excluded.body`,
    [runId, entry.id, entry.seq, encodeEntry(entry)],
  );
