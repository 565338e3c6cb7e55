/**
 * Repairs of runs after a bug fix or an outage (decisions 233–235), each one
 * transaction, audited: `retry` makes a failed run runnable again without its failed
 * checkpoints; `fork` makes a new run holding a copy of a run's history before one of
 * its entries. A process killed in the middle leaves nothing: the transaction rolls back.
 */
import { appendAudit } from '../../internal/durable/index.ts';
import type { SqlExecutor } from '../../internal/sql/index.ts';
import { WorkflowError } from '../errors.ts';
import type { HistoryEntry, StoredWorkflowRun, WorkflowActor, WorkflowStore } from '../types.ts';
import {
  decodeHistoryRow,
  decodeRunRow,
  type HistoryRow,
  RECORD_FORMAT,
  type RunRow,
} from './rows.ts';
import { lockRun, type WorkflowSql } from './store-context.ts';

/** How many entry ids a refused fork names, at most. */
const NAMED_ENTRIES = 20;

/** The repair operations of the workflow store over `sql`. */
export function runRepairs(sql: WorkflowSql): Pick<WorkflowStore, 'retry' | 'fork'> {
  const { driver, schema } = sql;
  return {
    async retry(runId, actor = {}) {
      await schema();
      return driver.transaction((tx) => retryRun(sql, tx, runId, actor));
    },
    async fork(runId, fork, actor = {}) {
      await schema();
      return driver.transaction((tx) => forkRun(sql, tx, runId, fork, actor));
    },
  };
}

/** See `WorkflowStore.retry`. */
async function retryRun(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
  actor: WorkflowActor,
): Promise<StoredWorkflowRun> {
  const { runs, now, t } = sql;
  const run = await lockRun(sql, tx, runId);
  if (run.status !== 'error') {
    throw new WorkflowError(
      'RUN_NOT_FAILED',
      `workflow run "${runId}" is ${run.status}: only a run that ended in error can be retried (fork makes a new run of any run)`,
      { runId },
    );
  }
  const failed = (await readHistory(sql, tx, runId)).filter((entry) => entry.error !== undefined);
  for (const entry of failed) {
    await tx.query(`DELETE FROM ${t('workflow_history')} WHERE run_id = ? AND entry_id = ?`, [
      runId,
      entry.id,
    ]);
  }
  const [row] = await tx.query<RunRow>(
    `UPDATE ${runs} SET status = 'running', output = NULL, error = NULL, waiting = NULL, cancel_requested = 0,
     wake_at = ${now}, lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now} WHERE run_id = ? RETURNING *`,
    [runId],
  );
  const again = failed.map((entry) => `${entry.kind} "${entry.id}"`).join(', ');
  await appendAudit(tx, t('workflow_audit'), now, {
    runId,
    action: 'retry',
    actor: actor.by ?? null,
    note: joinNotes(
      actor.note,
      `after: ${run.error?.message ?? 'unknown error'}`.slice(0, 500),
      again && `runs again: ${again}`.slice(0, 500),
    ),
  });
  return decodeRunRow(row);
}

/** See `WorkflowStore.fork`. */
async function forkRun(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
  fork: { runId: string; fromStep: string; input?: string },
  actor: WorkflowActor,
): Promise<{ run: StoredWorkflowRun; created: boolean }> {
  const { runs, now, t } = sql;
  const source = await lockRun(sql, tx, runId);
  const [taken] = await tx.query<RunRow>(`SELECT * FROM ${runs} WHERE run_id = ?`, [fork.runId]);
  if (taken) return { run: sameFork(decodeRunRow(taken), runId, fork), created: false };
  const from = forkPoint(source, await readHistory(sql, tx, runId), fork.fromStep);
  const [row] = await tx.query<RunRow>(
    `INSERT INTO ${runs} (run_id, workflow_id, signals, status, format, input, wake_at, forked_from, forked_at_step, created_at, updated_at)
     VALUES (?, ?, ?, 'running', ?, ?, ${now}, ?, ?, ${now}, ${now}) RETURNING *`,
    [
      fork.runId,
      source.workflowId,
      source.signals === undefined ? null : JSON.stringify(source.signals),
      RECORD_FORMAT,
      fork.input ?? source.input ?? null,
      runId,
      fork.fromStep,
    ],
  );
  await tx.query(
    `INSERT INTO ${t('workflow_history')} (run_id, entry_id, seq, body)
     SELECT ?, entry_id, seq, body FROM ${t('workflow_history')} WHERE run_id = ? AND seq < ?`,
    [fork.runId, runId, from.seq],
  );
  const audit = (on: string, note: string) =>
    appendAudit(tx, t('workflow_audit'), now, {
      runId: on,
      action: 'fork',
      actor: actor.by ?? null,
      note: joinNotes(actor.note, note),
    });
  await audit(runId, `forked into "${fork.runId}" from ${from.kind} "${from.id}"`);
  await audit(fork.runId, `forked from "${runId}" at ${from.kind} "${from.id}"`);
  return { run: decodeRunRow(row), created: true };
}

/**
 * The entry a fork starts from: `INVALID_ARGUMENT` naming the entries the history holds
 * when it holds no `fromStep`, or naming the first entry before it that still waits (its
 * wait cannot be copied: fork from it or earlier).
 */
function forkPoint(
  source: StoredWorkflowRun,
  history: HistoryEntry[],
  fromStep: string,
): HistoryEntry {
  const { runId } = source;
  const from = history.find((entry) => entry.id === fromStep);
  if (!from) {
    const ids = history.slice(0, NAMED_ENTRIES).map((entry) => `"${entry.id}"`);
    const more = history.length > NAMED_ENTRIES ? `, … (${history.length} in all)` : '';
    const pruned =
      history.length === 0 && source.status === 'continued'
        ? ` (it continued as new: a chain keeps the histories of its last keepContinuedHistories ended runs only)`
        : '';
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `fork: fromStep: workflow run "${runId}" has no history entry "${fromStep}"; it holds ${ids.join(', ') || 'none'}${more}${pruned}`,
      { runId },
    );
  }
  const waiting = history.find((entry) => entry.seq < from.seq && entry.state === 'waiting');
  if (waiting) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `fork: fromStep: ${waiting.kind} "${waiting.id}", before "${fromStep}" in run "${runId}", still waits and cannot be copied; fork from "${waiting.id}" or earlier`,
      { runId },
    );
  }
  return from;
}

/** The run a fork with this run id made before; `KEY_CONFLICT` when the id is another run's. */
function sameFork(
  run: StoredWorkflowRun,
  runId: string,
  fork: { runId: string; fromStep: string },
): StoredWorkflowRun {
  if (run.forkedFrom?.runId === runId && run.forkedFrom.fromStep === fork.fromStep) return run;
  throw new WorkflowError(
    'KEY_CONFLICT',
    `fork: runId: a run with id "${fork.runId}" already exists and is not a fork of "${runId}" from "${fork.fromStep}"`,
    { runId: fork.runId },
  );
}

/** The run's history, in recording order; `CORRUPT_RUN` for an entry that cannot be read. */
async function readHistory(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
): Promise<HistoryEntry[]> {
  const rows = await tx.query<HistoryRow>(
    `SELECT * FROM ${sql.t('workflow_history')} WHERE run_id = ? ORDER BY seq, entry_id`,
    [runId],
  );
  return rows.map(decodeHistoryRow);
}

/** The audit note of a repair: the actor's note, then what was done. */
const joinNotes = (...notes: Array<string | undefined | false>): string =>
  notes.filter((note) => typeof note === 'string' && note !== '').join('; ');
