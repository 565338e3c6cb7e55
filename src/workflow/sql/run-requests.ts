/**
 * The workflow store's queries and updates (decision 224): callers queue them in
 * `workflow_requests`, the worker that drives the run answers them when its code waits,
 * and an applied update's history entry is written in the same transaction as its
 * answer — so an update is applied once, whoever crashes when.
 */
import { canonicalJson } from '../../internal/canonical-json.ts';
import { WorkflowError } from '../errors.ts';
import type { NewRunRequest, RunRequest, StoredWorkflowRun, WorkflowStore } from '../types.ts';
import { updateInChain } from './chain-requests.ts';
import { IDEMPOTENT, writeUnderLease } from './run-leases.ts';
import { checkUnfinished, lockRun, upsertEntry, type WorkflowSql } from './store-context.ts';

/** A row of `workflow_requests`. */
interface RequestRow {
  run_id: string;
  request_id: string;
  kind: string;
  name: string;
  args: string | null;
  state: string;
  result: string | null;
  error: string | null;
  created_at: number | string;
}

/** The query and update operations of the workflow store over `sql`. */
export function runRequests(
  sql: WorkflowSql,
): Pick<
  WorkflowStore,
  'sendRequest' | 'openRequests' | 'answerRequest' | 'getRequest' | 'dropRequest'
> {
  const { driver, t, runs, now, schema } = sql;
  const table = t('workflow_requests');
  const byId = `SELECT * FROM ${table} WHERE run_id = ? AND request_id = ?`;
  return {
    async sendRequest(request, maxQueued) {
      await schema();
      return driver.transaction(async (tx) => {
        const run = await lockRun(sql, tx, request.runId);
        const [existing] = await tx.query<RequestRow>(byId, [request.runId, request.requestId]);
        const earlier =
          existing ??
          (request.kind === 'update'
            ? await updateInChain<RequestRow>(sql, tx, run, request.requestId)
            : undefined);
        if (earlier) return sameRequest(decodeRequest(earlier), request);
        checkUnfinished(run, `${request.kind === 'query' ? 'queries' : 'updates'}`);
        checkHandlers(run, request);
        const [count] = await tx.query<{ n: number | string }>(
          `SELECT COUNT(*) AS n FROM ${table} WHERE run_id = ? AND state = 'open'`,
          [request.runId],
        );
        if (Number(count.n) >= maxQueued) {
          throw new WorkflowError(
            'UPDATE_QUEUE_FULL',
            `workflow run "${request.runId}" already holds ${maxQueued} queries and updates it has not answered (maxQueuedUpdates); ${request.kind} "${request.name}" was not queued`,
            { runId: request.runId },
          );
        }
        await tx.query(
          `INSERT INTO ${table} (run_id, request_id, kind, name, args, state, created_at) VALUES (?, ?, ?, ?, ?, 'open', ${now})`,
          [request.runId, request.requestId, request.kind, request.name, request.args ?? null],
        );
        if (run.status === 'waiting') {
          await tx.query(
            `UPDATE ${runs} SET wake_at = ${now}, updated_at = ${now} WHERE run_id = ?`,
            [request.runId],
          );
        }
        const [row] = await tx.query<RequestRow>(byId, [request.runId, request.requestId]);
        return decodeRequest(row);
      }, IDEMPOTENT);
    },

    async openRequests(runId) {
      await schema();
      const rows = await driver.query<RequestRow>(
        `SELECT * FROM ${table} WHERE run_id = ? AND state = 'open' ORDER BY id`,
        [runId],
      );
      return rows.map(decodeRequest);
    },

    async answerRequest(runId, owner, answer, entry, leaseMs) {
      await schema();
      return writeUnderLease(sql, runId, owner, leaseMs, async (tx) => {
        if (entry) await upsertEntry(sql, tx, runId, entry);
        await tx.query(
          `UPDATE ${table} SET state = ?, result = ?, error = ? WHERE run_id = ? AND request_id = ?`,
          [
            answer.state,
            answer.result ?? null,
            answer.error ? JSON.stringify(answer.error) : null,
            runId,
            answer.requestId,
          ],
        );
      });
    },

    async getRequest(runId, requestId) {
      await schema();
      const [row] = await driver.query<RequestRow>(byId, [runId, requestId]);
      return row ? decodeRequest(row) : undefined;
    },

    async dropRequest(runId, requestId) {
      await schema();
      await driver.query(
        `DELETE FROM ${table} WHERE run_id = ? AND request_id = ? AND kind = 'query'`,
        [runId, requestId],
      );
    },
  };
}

/** `UNKNOWN_QUERY`/`UNKNOWN_UPDATE` when the run waits without having registered any handler. */
function checkHandlers(run: StoredWorkflowRun, request: NewRunRequest): void {
  if (run.status !== 'waiting' || run.waiting?.requests) return;
  throw new WorkflowError(
    request.kind === 'query' ? 'UNKNOWN_QUERY' : 'UNKNOWN_UPDATE',
    `workflow run "${run.runId}" registered no query or update handler (ctx.onQuery, ctx.onUpdate) before it waited; ${request.kind} "${request.name}" cannot be answered`,
    { runId: run.runId },
  );
}

/** The stored update of a repeated update id, when it is the same update; else `INVALID_ARGUMENT`. */
function sameRequest(stored: RunRequest, request: NewRunRequest): RunRequest {
  const same =
    stored.kind === request.kind &&
    stored.name === request.name &&
    canonicalArgs(stored.args) === canonicalArgs(request.args);
  if (same) return stored;
  throw new WorkflowError(
    'INVALID_ARGUMENT',
    `update id "${request.requestId}" of workflow run "${request.runId}" was already used for ${stored.kind} "${stored.name}" with other arguments; an update id names one update`,
    { runId: request.runId },
  );
}

const canonicalArgs = (text: string | undefined): string =>
  text === undefined ? '' : (canonicalJson(JSON.parse(text)) ?? '');

function decodeRequest(row: RequestRow): RunRequest {
  return {
    runId: row.run_id,
    requestId: row.request_id,
    kind: row.kind === 'query' ? 'query' : 'update',
    name: row.name,
    ...(row.args === null ? {} : { args: row.args }),
    state: row.state === 'done' ? 'done' : row.state === 'failed' ? 'failed' : 'open',
    ...(row.result === null ? {} : { result: row.result }),
    ...(row.error === null ? {} : { error: JSON.parse(row.error) }),
    createdAt: Number(row.created_at),
  };
}
