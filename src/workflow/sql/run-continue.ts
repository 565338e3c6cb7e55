/**
 * Continue-as-new in the workflow store (decision 229): a run ends as `continued` and its
 * successor is created in the same transaction, so no crash leaves a chain without a
 * live run, or with two. The run's unconsumed signals move to the successor under the
 * run's row lock, which `signal` takes too: a signal is queued either before the switch
 * (and moved) or after it (and sent on to the successor by `follow-chain.ts`), never lost.
 *
 * A chain is the runs of one `ctx.continueAsNew` lineage: each run names the run it
 * continues (`continued_from`) and the run that continues it (`continued_to`), and every
 * run of a chain that has continued names its first run (`chain_root`), so the live run
 * of a chain is one indexed lookup however long the chain is.
 */
import { writeIfHeld } from '../../internal/durable/index.ts';
import type { SqlExecutor } from '../../internal/sql/index.ts';
import type { WorkflowStore } from '../types.ts';
import { handOver } from './chain-handover.ts';
import { decodeRunRow, RECORD_FORMAT, type RunRow } from './rows.ts';
import type { WorkflowSql } from './store-context.ts';

/**
 * The shortest life of a run of a chain, in ms: the successor of a run that lived less
 * becomes due this long after its predecessor was created. So a workflow that continues
 * as new in a tight loop makes at most 10 runs a second (decision 231).
 */
export const MIN_CHAIN_RUN_MS = 100;

/** The continue-as-new operations of the workflow store over `sql`. */
export function runContinue(
  sql: WorkflowSql,
): Pick<WorkflowStore, 'continueAsNew' | 'latestInChain'> {
  const { driver, runs, now, schema } = sql;
  return {
    async continueAsNew(runId, owner, successor, keepHistories) {
      await schema();
      return driver.transaction(
        async (tx) => {
          const [ended] = await writeIfHeld(
            tx,
            {
              table: runs,
              set: `status = 'continued', continued_to = ?, chain_root = COALESCE(chain_root, run_id), output = NULL, error = NULL, waiting = NULL, wake_at = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}`,
              params: [successor.runId],
            },
            runId,
            owner,
          );
          if (!ended) return continuedTo(sql, tx, runId, successor.runId);
          await tx.query(
            `INSERT INTO ${runs} (run_id, workflow_id, run_key, parent_run_id, signals, status, format, input, wake_at, cancel_requested, continued_from, chain_root, created_at, updated_at)
             SELECT ?, workflow_id, NULL, parent_run_id, signals, 'running', ?, ?,
               CASE WHEN ${now} > created_at + ? THEN ${now} ELSE created_at + ? END,
               cancel_requested, run_id, chain_root, ${now}, ${now}
             FROM ${runs} WHERE run_id = ?`,
            [
              successor.runId,
              RECORD_FORMAT,
              successor.input ?? null,
              MIN_CHAIN_RUN_MS,
              MIN_CHAIN_RUN_MS,
              runId,
            ],
          );
          await tx.query(
            `UPDATE ${sql.t('workflow_signals')} SET run_id = ? WHERE run_id = ? AND consumed_by IS NULL`,
            [successor.runId, runId],
          );
          await handOver(sql, tx, runId, successor.runId);
          await pruneOldHistory(sql, tx, runId, keepHistories);
          return true;
        },
        { idempotent: true },
      );
    },

    async latestInChain(runId) {
      await schema();
      const [row] = await driver.query<RunRow>(`SELECT * FROM ${runs} WHERE run_id = ?`, [runId]);
      if (!row) return undefined;
      const run = decodeRunRow(row);
      if (run.status !== 'continued' || run.chainRoot === undefined) return run;
      const [latest] = await driver.query<RunRow>(
        `SELECT * FROM ${runs} WHERE chain_root = ? AND continued_to IS NULL`,
        [run.chainRoot],
      );
      return latest ? decodeRunRow(latest) : run;
    },
  };
}

/**
 * Whether the run `continueAsNew` found no longer held already continued to `successorId`:
 * this worker's own write, run again after a commit whose outcome was unknown (decision 170).
 */
async function continuedTo(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
  successorId: string,
): Promise<boolean> {
  const [row] = await tx.query<{ status: string; continued_to: string | null }>(
    `SELECT status, continued_to FROM ${sql.runs} WHERE run_id = ?${sql.driver.forUpdate}`,
    [runId],
  );
  return row?.status === 'continued' && row.continued_to === successorId;
}

/**
 * Deletes the history, signals and input (kept with a key) of the run `keepHistories` generations before
 * the run that just continued (the run itself when 0): each continue-as-new prunes one
 * run, so a chain keeps the histories of its last `keepHistories` ended runs, and its
 * store size stays flat. The pruned run keeps its row: ids, status, links and times.
 */
async function pruneOldHistory(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
  keepHistories: number,
): Promise<void> {
  let target: string | null = runId;
  for (let back = 0; back < keepHistories && target !== null; back++) {
    const [row]: { continued_from: string | null }[] = await tx.query(
      `SELECT continued_from FROM ${sql.runs} WHERE run_id = ?`,
      [target],
    );
    target = row?.continued_from ?? null;
  }
  if (target === null) return;
  await tx.query(`DELETE FROM ${sql.t('workflow_history')} WHERE run_id = ?`, [target]);
  await tx.query(`DELETE FROM ${sql.t('workflow_signals')} WHERE run_id = ?`, [target]);
  // A run with a key keeps its input: `start` with the key compares it (the chain's first run).
  await tx.query(`UPDATE ${sql.runs} SET input = NULL WHERE run_id = ? AND run_key IS NULL`, [
    target,
  ]);
}
