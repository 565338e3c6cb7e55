/**
 * Update ids name one update in a whole continue-as-new chain (decision 254): an update
 * sent again to a chain whose earlier run applied it — the caller missed the answer, and
 * the run continued as new meanwhile — is found in that run and answered from there,
 * never applied again. A continuing run's queued requests move to its successor
 * (`chain-handover.ts`), so an id is held by one run of its chain at a time.
 */
import type { SqlExecutor } from '../../internal/sql/index.ts';
import type { StoredWorkflowRun } from '../types.ts';
import type { WorkflowSql } from './store-context.ts';

/**
 * The row of update `requestId` held by another run of `run`'s chain, if one does: read
 * under `run`'s lock, which every send to the chain takes, so two sends never both miss it.
 */
export async function updateInChain<Row>(
  sql: WorkflowSql,
  tx: SqlExecutor,
  run: StoredWorkflowRun,
  requestId: string,
): Promise<Row | undefined> {
  if (run.chainRoot === undefined) return undefined; // the chain's first run: it has no predecessor
  const [row] = await tx.query<Row>(
    `SELECT q.* FROM ${sql.t('workflow_requests')} q JOIN ${sql.runs} r ON r.run_id = q.run_id
     WHERE r.chain_root = ? AND q.request_id = ? AND q.kind = 'update' ORDER BY q.id LIMIT 1`,
    [run.chainRoot, requestId],
  );
  return row;
}
