/**
 * MCP tasks kept in a session store: each task is one run of the store (its lease, its
 * pending call and its exactly-once decisions are the run's), plus one `fino_mcp_tasks`
 * row with what MCP adds — which client owns it, which tool it calls with which
 * arguments, how long it is kept, and its latest status message. Decisions 096, 156.
 */

import { newToken } from '../../../../internal/durable/index.ts';
import { type StoreSql, storeSqlOf } from '../../../../internal/sql/index.ts';
import { type PendingCall, type RunState, STATE_VERSION } from '../../../agent/index.ts';
import { SessionError, type Store, type StoredRun } from '../../../session/index.ts';

/** One MCP task as stored: its record and its run. */
export interface McpTaskRecord {
  taskId: string;
  /** The client (auth principal, or the anonymous one) that created it; only it may read it. */
  ownerKey: string;
  /** The 2025-era MCP session that created it, when there was one (it scopes `tasks/list`). */
  sessionId?: string;
  toolName: string;
  arguments: unknown;
  /** How long the task is kept from its creation, in milliseconds. */
  ttlMs: number;
  statusMessage?: string;
  /** Epoch milliseconds. */
  createdAt: number;
  run: StoredRun;
}

/** What creating a task records: the record's own fields, and who runs it first. */
export interface NewMcpTask
  extends Pick<
    McpTaskRecord,
    'taskId' | 'ownerKey' | 'sessionId' | 'toolName' | 'arguments' | 'ttlMs'
  > {
  /** The worker that runs it first, and for how long its lease holds. */
  worker: string;
  leaseMs: number;
}

/** Where `list` continues: after the task created at `createdAt` with id `taskId`. */
export interface McpTaskCursor {
  createdAt: number;
  taskId: string;
}

/** MCP task records over a session store. See {@link mcpTaskStore}. */
export interface McpTaskStore {
  /** The session store holding the tasks' runs. */
  readonly runs: Store;
  /** Records a task and creates its run, leased to `worker`. */
  create(task: NewMcpTask): Promise<void>;
  /** The task, when it exists and (with `ownerKey`) belongs to that owner. */
  get(taskId: string, ownerKey?: string): Promise<McpTaskRecord | undefined>;
  /** `ownerKey`'s tasks (of `sessionId` only, when given), oldest first, at most `limit`. */
  list(
    ownerKey: string,
    options: { sessionId?: string; after?: McpTaskCursor; limit: number },
  ): Promise<McpTaskRecord[]>;
  /** How many tasks `ownerKey` has stored that have not expired (finished ones included). */
  count(ownerKey: string): Promise<number>;
  setStatusMessage(taskId: string, message: string | undefined): Promise<void>;
  /**
   * Ends `worker`'s lease on the task: `completed` with `result` (any JSON value),
   * waiting on its pending call (and `more`, the other forms asked at once), or `failed`
   * with a reason. `false` when the worker no
   * longer holds the task (it was cancelled, or another worker took it over).
   */
  finish(
    taskId: string,
    worker: string,
    outcome:
      | { status: 'completed'; result: unknown }
      | { status: 'input_required'; call: PendingCall; more?: PendingCall[] }
      | { status: 'failed'; error: string },
  ): Promise<boolean>;
  /** The stored result of a completed task. */
  resultOf(record: McpTaskRecord): unknown;
  /**
   * Tasks no worker holds that can go on: decided (`ready`), or `interrupted` (their
   * worker's lease expired while the tool ran: the process died).
   */
  orphans(): Promise<Array<{ taskId: string; interrupted: boolean }>>;
  /** Deletes tasks (records, runs, pending calls, audit) kept past their time; returns how many. */
  sweep(): Promise<number>;
}

interface TaskRow {
  task_id: string;
  owner_key: string;
  session_id: string | null;
  tool_name: string;
  arguments: string;
  ttl_ms: number | string;
  status_message: string | null;
  created_at: number | string;
}

/** The longest status message kept. */
const MAX_MESSAGE_CHARS = 500;

/**
 * MCP task records in the same database as `store` (one of `sqliteStore()`,
 * `memoryStore()`, `postgresStore()`): several servers sharing the database share the
 * tasks. `fino sessions approve` decides a task's pending call like any run's.
 *
 * @example
 * ```ts
 * import { mcpTaskStore } from 'fino:ai/mcp';
 * import { memoryStore } from 'fino:ai/session';
 *
 * const tasks = mcpTaskStore(memoryStore());
 * await tasks.create({
 *   taskId: 'task_1',
 *   ownerKey: 'anonymous',
 *   toolName: 'report',
 *   arguments: {},
 *   ttlMs: 60_000,
 *   worker: 'me',
 *   leaseMs: 10_000,
 * });
 * console.log((await tasks.get('task_1'))?.run.status); // running
 * ```
 */
export function mcpTaskStore(store: Store): McpTaskStore {
  const sql = storeSqlOf(store);
  if (!sql) {
    throw new SessionError(
      'INVALID_ARGUMENT',
      'mcpTaskStore(store): expected a store made by sqliteStore(), memoryStore() or postgresStore()',
    );
  }
  const { driver } = sql;
  const t = driver.table;
  const now = driver.nowMs;

  const withRun = async (row: TaskRow | undefined) => {
    if (!row) return undefined;
    const run = await store.get(row.task_id);
    return run && decodeTask(row, run);
  };

  return {
    runs: store,

    async create(task) {
      await sql.migrated();
      const args = JSON.stringify(task.arguments ?? {});
      await insertTask(sql, task, args);
      await store.create({
        runId: task.taskId,
        input: `MCP task: tools/call "${task.toolName}" with ${args}`,
        owner: task.worker,
        leaseMs: task.leaseMs,
      });
    },

    async get(taskId, ownerKey) {
      await sql.migrated();
      const [row] = await driver.query<TaskRow>(
        `SELECT * FROM ${t('mcp_tasks')} WHERE task_id = ? AND (CAST(? AS TEXT) IS NULL OR owner_key = ?)`,
        [taskId, ownerKey ?? null, ownerKey ?? null],
      );
      return withRun(row);
    },

    async list(ownerKey, { sessionId, after, limit }) {
      await sql.migrated();
      const rows = await ownerRows(sql, ownerKey, { sessionId, after, limit });
      const records: McpTaskRecord[] = [];
      for (const row of rows) {
        const record = await withRun(row);
        if (record) records.push(record);
      }
      return records;
    },

    async count(ownerKey) {
      await sql.migrated();
      const [row] = await driver.query<{ n: number | string }>(
        `SELECT COUNT(*) AS n FROM ${t('mcp_tasks')} WHERE owner_key = ? AND expires_at >= ${now}`,
        [ownerKey],
      );
      return Number(row?.n ?? 0);
    },

    async setStatusMessage(taskId, message) {
      await sql.migrated();
      await driver.query(`UPDATE ${t('mcp_tasks')} SET status_message = ? WHERE task_id = ?`, [
        message === undefined ? null : message.slice(0, MAX_MESSAGE_CHARS),
        taskId,
      ]);
    },

    async finish(taskId, worker, outcome) {
      return (await finishRun(store, taskId, worker, outcome)) !== undefined;
    },

    resultOf(record) {
      return JSON.parse(record.run.text ?? 'null');
    },

    async orphans() {
      await sql.migrated();
      const rows = await driver.query<{ task_id: string; status: string }>(
        `SELECT m.task_id, r.status FROM ${t('mcp_tasks')} m JOIN ${t('runs')} r ON r.run_id = m.task_id
         WHERE r.status = 'ready' OR (r.status = 'running' AND r.lease_expires_at < ${now})
         ORDER BY r.updated_at`,
      );
      return rows.map((row) => ({ taskId: row.task_id, interrupted: row.status === 'running' }));
    },

    async sweep() {
      await sql.migrated();
      return sweepExpired(sql);
    },
  };
}

/** Reads a `mcp_tasks` row with its run. */
function decodeTask(row: TaskRow, run: StoredRun): McpTaskRecord {
  const record: McpTaskRecord = {
    taskId: row.task_id,
    ownerKey: row.owner_key,
    toolName: row.tool_name,
    arguments: JSON.parse(row.arguments),
    ttlMs: Number(row.ttl_ms),
    createdAt: Number(row.created_at),
    run,
  };
  if (row.session_id !== null) record.sessionId = row.session_id;
  if (row.status_message !== null) record.statusMessage = row.status_message;
  return record;
}

/** Inserts the task's record (`args`: its arguments as JSON). */
async function insertTask(sql: StoreSql, task: NewMcpTask, args: string): Promise<void> {
  const { driver } = sql;
  const t = driver.table;
  const now = driver.nowMs;
  // The record first: a crash before the run leaves a record without a run, which
  // reads as no task at all; the other order would leave a run nobody serves.
  const insert = driver.query(
    `INSERT INTO ${t('mcp_tasks')} (task_id, owner_key, session_id, tool_name, arguments, ttl_ms, expires_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ${now} + ?, ${now})`,
    [
      task.taskId,
      task.ownerKey,
      task.sessionId ?? null,
      task.toolName,
      args,
      task.ttlMs,
      task.ttlMs,
    ],
  );
  await insert.catch(async (error: unknown) => {
    // Retried after its first try's commit landed unseen: the record is its own (decision 170).
    const [own] = driver.isUniqueViolation(error)
      ? await driver.query(
          `SELECT task_id FROM ${t('mcp_tasks')} WHERE task_id = ? AND owner_key = ? AND tool_name = ?`,
          [task.taskId, task.ownerKey, task.toolName],
        )
      : [];
    if (!own) throw error;
  });
}

/** `ownerKey`'s task rows (of `sessionId` only, when given), oldest first, after the cursor. */
async function ownerRows(
  sql: StoreSql,
  ownerKey: string,
  { sessionId, after, limit }: { sessionId?: string; after?: McpTaskCursor; limit: number },
): Promise<TaskRow[]> {
  const { driver } = sql;
  const t = driver.table;
  return driver.query<TaskRow>(
    `SELECT * FROM ${t('mcp_tasks')}
     WHERE owner_key = ? AND (CAST(? AS TEXT) IS NULL OR session_id = ?)
       AND (CAST(? AS BIGINT) IS NULL OR created_at > ? OR (created_at = ? AND task_id > ?))
     ORDER BY created_at, task_id LIMIT ?`,
    [
      ownerKey,
      sessionId ?? null,
      sessionId ?? null,
      after?.createdAt ?? null,
      after?.createdAt ?? null,
      after?.createdAt ?? null,
      after?.taskId ?? null,
      limit,
    ],
  );
}

/** Ends the task's run with `outcome`, when `worker` still holds it. */
async function finishRun(
  store: Store,
  taskId: string,
  worker: string,
  outcome: Parameters<McpTaskStore['finish']>[2],
): Promise<StoredRun | undefined> {
  // A task's run is one tool call, not a conversation: its state is the empty one.
  const state: RunState = {
    version: STATE_VERSION,
    runId: taskId,
    messages: [],
    steps: [],
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  };
  return outcome.status === 'completed'
    ? await store.finish(taskId, worker, {
        status: 'done',
        state,
        text: JSON.stringify(outcome.result),
      })
    : outcome.status === 'input_required'
      ? await store.finish(taskId, worker, {
          status: 'suspended',
          state,
          // Deciding goes by task and call id; the token is not handed to anyone.
          pending: [outcome.call, ...(outcome.more ?? [])].map((call) => ({
            call,
            token: newToken(),
          })),
        })
      : await store.finish(taskId, worker, { status: 'error', error: outcome.error });
}

/** Deletes up to 500 tasks kept past their time (records, runs, pending calls, audit, run events). */
function sweepExpired(sql: StoreSql): Promise<number> {
  const { driver } = sql;
  const t = driver.table;
  const now = driver.nowMs;
  return driver.transaction(async (tx) => {
    const expired = await tx.query<{ task_id: string }>(
      `SELECT m.task_id FROM ${t('mcp_tasks')} m LEFT JOIN ${t('runs')} r ON r.run_id = m.task_id
       WHERE m.expires_at < ${now} AND (r.status IS NULL OR r.status <> 'running') LIMIT 500`,
    );
    if (expired.length === 0) return 0;
    const ids = expired.map((row) => row.task_id);
    const list = ids.map(() => '?').join(', ');
    await tx.query(`DELETE FROM ${t('audit')} WHERE run_id IN (${list})`, ids);
    await tx.query(`DELETE FROM ${t('run_events')} WHERE run_id IN (${list})`, ids);
    await tx.query(`DELETE FROM ${t('runs')} WHERE run_id IN (${list})`, ids);
    await tx.query(`DELETE FROM ${t('mcp_tasks')} WHERE task_id IN (${list})`, ids);
    return ids.length;
  });
}
