/**
 * Whether a run holds queries or updates no worker has answered yet: `park` asks it of a
 * run whose code registered handlers, and executes the run again instead of parking it
 * (decision 224). Its own file so that the lease writes and the request table's part of
 * the store do not import each other.
 */
import type { SqlExecutor } from '../../internal/sql/index.ts';
import type { WorkflowSql } from './store-context.ts';

/** Whether the run holds open requests: a park then executes again. */
export async function requestsOpen(
  sql: WorkflowSql,
  tx: SqlExecutor,
  runId: string,
): Promise<boolean> {
  const [open] = await tx.query(
    `SELECT request_id FROM ${sql.t('workflow_requests')} WHERE run_id = ? AND state = 'open' LIMIT 1`,
    [runId],
  );
  return open !== undefined;
}
