/**
 * The MCP 2025-11-25 wire form of a stored task: its status, its `Task` object, who
 * owns it, the `params.task` a client sends and the `tasks/list` cursor. Decision 096.
 */
import {
  type AuthInfo,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type ServerContext,
  type Task,
  type TaskStatus,
} from '@modelcontextprotocol/server';
import { sha256Hex } from '../../../../internal/sha256.ts';
import type { RunStatus } from '../../../session/index.ts';
import { errorResult } from '../../protocol/index.ts';
import type { McpTaskCursor, McpTaskRecord } from './task-store.ts';

/** Statuses after which a task never changes. */
export const TERMINAL: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/** The MCP status of a task whose run is `status`. */
export function taskStatus(status: RunStatus): TaskStatus {
  switch (status) {
    case 'suspended':
      return 'input_required';
    case 'done':
      return 'completed';
    case 'error':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'working'; // running, or decided and about to run on
  }
}

/** The `Task` object of a stored task. */
export function toTask(record: McpTaskRecord, pollIntervalMs: number): Task {
  const status = taskStatus(record.run.status);
  const task: Task = {
    taskId: record.taskId,
    status,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(Math.max(record.createdAt, record.run.updatedAt)).toISOString(),
    ttl: record.ttlMs,
  };
  if (!TERMINAL.includes(status)) task.pollInterval = pollIntervalMs;
  const message =
    status === 'failed' ? (record.run.error ?? record.statusMessage) : record.statusMessage;
  if (message !== undefined) task.statusMessage = message;
  return task;
}

/** `_meta` tying a message to a task. */
export const relatedTask = (taskId: string) => ({ [RELATED_TASK_META_KEY]: { taskId } });

/** What `tasks/result` answers for a task that failed or was cancelled: a tool error naming why. */
export function endedResult(record: McpTaskRecord, status: 'failed' | 'cancelled') {
  const { taskId } = record;
  const why =
    status === 'failed'
      ? `Task "${taskId}" failed: ${record.run.error ?? 'no reason recorded'}`
      : `Task "${taskId}" was cancelled.`;
  return { ...errorResult(why), _meta: relatedTask(taskId) };
}

/** Who may read a task: the request's auth principal, or the one anonymous client. */
export interface TaskOwner {
  ownerKey: string;
  /** The 2025-era MCP session, which scopes `tasks/list` of anonymous HTTP clients. */
  sessionId?: string;
}

/**
 * The owner of a request: the authenticated principal (the `authInfo` a bearer-token
 * check in front of the endpoint put on the request) — its subject (`extra.sub`) within
 * its client application, else the token itself (as a SHA-256), never the application
 * alone — or `anonymous`: over stdio the one client, over unauthenticated HTTP any client
 * that knows a task's unguessable id. The parts are encoded as JSON, so no two principals
 * share a key (decision 115).
 */
export function ownerOf(ctx: ServerContext): TaskOwner {
  const owner: TaskOwner = { ownerKey: ownerKeyOf(ctx.http?.authInfo) };
  if (ctx.sessionId !== undefined) owner.sessionId = ctx.sessionId;
  return owner;
}

/** The owner key of an authenticated principal, or `anonymous`. */
function ownerKeyOf(auth: AuthInfo | undefined): string {
  if (!auth) return 'anonymous';
  const sub = auth.extra?.sub;
  const principal =
    typeof sub === 'string' && sub !== '' ? ['sub', sub] : ['token', sha256Hex(String(auth.token))];
  return `auth:${JSON.stringify([String(auth.clientId), ...principal])}`;
}

/** A `tasks/*` request's `taskId`: a string of sane length, else `-32602`. */
export function taskIdParam(params: unknown): string {
  const taskId = (params as { taskId?: unknown } | undefined)?.taskId;
  if (typeof taskId !== 'string' || taskId === '' || taskId.length > 200) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid taskId: expected a non-empty string of at most 200 characters, received ${taskId === undefined ? 'none' : typeof taskId === 'string' ? `${taskId.length} characters` : typeof taskId}`,
    );
  }
  return taskId;
}

/** The error for a task id this client cannot see: the same whether it exists or not. */
export const unknownTask = (taskId: string) =>
  new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown task "${taskId.slice(0, 64)}": no such task, or it expired, or it belongs to another client`,
  );

/** The error for cancelling a task that has ended. */
export const terminalTask = (taskId: string, status: TaskStatus) =>
  new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Task "${taskId.slice(0, 64)}" is already ${status}; only a task that has not ended can be cancelled`,
  );

/**
 * The retention of a new task: the client's `params.task.ttl`, at most `maxTtlMs`
 * (which is also the default). A `ttl` that is not a positive number is `-32602`.
 */
export function taskTtl(task: unknown, maxTtlMs: number): number {
  if (task === null || typeof task !== 'object' || Array.isArray(task)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid params.task: expected an object such as { "ttl": 60000 }, received ${task === null ? 'null' : Array.isArray(task) ? 'an array' : typeof task}`,
    );
  }
  const ttl = (task as { ttl?: unknown }).ttl;
  if (ttl === undefined || ttl === null) return maxTtlMs;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid params.task.ttl: expected a positive number of milliseconds, received ${typeof ttl === 'number' ? ttl : typeof ttl}`,
    );
  }
  return Math.min(Math.ceil(ttl), maxTtlMs);
}

/** The opaque `nextCursor` continuing after `record`. */
export const encodeCursor = (cursor: McpTaskCursor): string =>
  Buffer.from(JSON.stringify([cursor.createdAt, cursor.taskId])).toString('base64url');

/** A `tasks/list` cursor back into its position; `-32602` for one this server did not make. */
export function decodeCursor(cursor: unknown): McpTaskCursor | undefined {
  if (cursor === undefined) return undefined;
  try {
    if (typeof cursor !== 'string' || cursor.length > 400) throw new Error('not a cursor');
    const [createdAt, taskId] = JSON.parse(
      Buffer.from(cursor, 'base64url').toString(),
    ) as unknown[];
    if (typeof createdAt !== 'number' || typeof taskId !== 'string')
      throw new Error('not a cursor');
    return { createdAt, taskId };
  } catch {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'Invalid cursor: expected a nextCursor from an earlier tasks/list answer',
    );
  }
}

/** The error for a task the limits do not take now (decision 116). */
export const tooManyTasks = (why: string) =>
  new ProtocolError(ProtocolErrorCode.InvalidRequest, `Too many tasks: ${why}.`);
