/**
 * Reading a remote server's task answers field by field: the task object of
 * `tools/call`/`tasks/get`, the result of `tasks/result`, progress notifications, and
 * the value a suspended call is resumed with. What cannot be followed throws
 * `UnfollowableTask` (the task is then cancelled).
 */
import {
  type CallToolResult,
  type ElicitResult,
  isCallToolResult,
} from '@modelcontextprotocol/client';
import { describeValue } from '../../../../internal/describe-value.ts';
import type { Progress } from '../../../../task/index.ts';
import type { RemoteTaskResume } from './remote-task.ts';

const STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
export type Status = (typeof STATUSES)[number];

/** The fields of a task this client uses, checked. */
export interface TaskView {
  taskId: string;
  status: Status;
  statusMessage?: string;
  pollInterval?: number;
}

const MAX_TASK_ID_CHARS = 1_000;

/** A server answer this client cannot follow; the task is cancelled. */
export class UnfollowableTask extends Error {}

/**
 * The `Progress` in a server's `notifications/progress` params: `progress` a finite
 * number ≥ 0, `total` kept when a finite number > 0, `message` cut to 500 characters;
 * `undefined` when `progress` is unusable.
 */
export function readServerProgress(params: unknown): Progress | undefined {
  const progress = ownField(params, 'progress');
  const total = ownField(params, 'total');
  const message = ownField(params, 'message');
  if (typeof progress !== 'number' || !Number.isFinite(progress) || progress < 0) return;
  const update: Progress = { progress };
  if (typeof total === 'number' && Number.isFinite(total) && total > 0) update.total = total;
  if (typeof message === 'string') update.message = message.slice(0, 500);
  return update;
}

/** A task object from `method`'s answer, checked field by field. */
export function readTask(value: unknown, method: string, expectedId?: string): TaskView {
  const taskId = ownField(value, 'taskId');
  const status = ownField(value, 'status');
  const fail = (what: string): never => {
    throw new UnfollowableTask(`${method} answered ${what}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(`${describeValue(value)}; expected a task object { taskId, status, … }`);
  }
  if (typeof taskId !== 'string' || taskId === '' || taskId.length > MAX_TASK_ID_CHARS) {
    fail(
      `taskId: expected a non-empty string of at most ${MAX_TASK_ID_CHARS} characters, received ${describeValue(taskId)}`,
    );
  }
  if (expectedId !== undefined && taskId !== expectedId) {
    fail(`another task, ${JSON.stringify(String(taskId).slice(0, 100))}`);
  }
  if (!STATUSES.includes(status as Status)) {
    fail(`status: expected ${STATUSES.join(', ')}, received ${describeValue(status)}`);
  }
  const task: TaskView = { taskId: taskId as string, status: status as Status };
  const message = ownField(value, 'statusMessage');
  if (typeof message === 'string' && message !== '') task.statusMessage = message.slice(0, 500);
  const pollInterval = ownField(value, 'pollInterval');
  if (typeof pollInterval === 'number' && Number.isFinite(pollInterval)) {
    task.pollInterval = pollInterval;
  }
  return task;
}

export function readResult(value: unknown, taskId: string): CallToolResult {
  if (isCallToolResult(value)) return value;
  throw new UnfollowableTask(
    `tasks/result answered ${describeValue(value)} for task ${JSON.stringify(taskId)}; expected a tool result { content: [...] }`,
  );
}

export function readResume(tool: string, value: unknown): RemoteTaskResume {
  const taskId = ownField(value, 'taskId');
  const answer = ownField(value, 'answer');
  const action = ownField(answer, 'action');
  if (
    typeof taskId === 'string' &&
    taskId !== '' &&
    (action === 'accept' || action === 'decline' || action === 'cancel')
  ) {
    return { taskId, answer: answer as ElicitResult };
  }
  throw new TypeError(
    `resume value for remote task tool "${tool}": expected { taskId: string, answer: { action: 'accept' | 'decline' | 'cancel', content? } } (taskId from the suspension's payload), received ${describeValue(value)}`,
  );
}

export function ownField(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
