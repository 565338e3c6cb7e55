/**
 * The Tasks extension of MCP 2026-07-28 (SEP-2663, decision 214): its capability, the
 * per-request opt-in, and the flat wire forms of a fino task — `CreateTaskResult` with
 * `resultType: "task"`, `tasks/get` with the result or error inlined, and the empty
 * `tasks/cancel` acknowledgement.
 */
import {
  type CallToolResult,
  type ClientCapabilities,
  type CreateTaskResult,
  MissingRequiredClientCapabilityError,
  type Result,
  type Task,
} from '@modelcontextprotocol/server';
import { TASKS_EXTENSION } from '../../protocol/index.ts';

export { TASKS_EXTENSION };

/** Whether a request's client capabilities opt into the extension. */
export const optsIntoTasks = (capabilities: ClientCapabilities | undefined): boolean =>
  (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[
    TASKS_EXTENSION
  ] !== undefined;

/** `-32021` for a request that needs the extension from a client that did not opt in. */
export const extensionRequired = (what: string) =>
  new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } as never,
    `${what} needs the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities`,
  );

/** A 2025 `Task` in the extension's field names: `ttlMs` and `pollIntervalMs`. */
export function flatTask(task: Task): Record<string, unknown> {
  const { ttl, pollInterval, ...rest } = task;
  return {
    ...rest,
    ttlMs: ttl,
    ...(pollInterval === undefined ? {} : { pollIntervalMs: pollInterval }),
  };
}

/** A task and what it ended with, as `tasks/get` inlines it. */
export interface TaskDetail {
  task: Task;
  result?: CallToolResult;
  error?: string;
  /** The questions of a task waiting for input, by key (decision 242). */
  inputRequests?: Record<string, unknown>;
}

/** The `tasks/get` answer of the extension: the task, its result or its error inlined. */
export function detailedTask(detail: TaskDetail): Result {
  const answer: Record<string, unknown> = { ...flatTask(detail.task) };
  if (detail.result !== undefined) answer.result = detail.result;
  if (detail.error !== undefined) answer.error = { code: -32603, message: detail.error };
  if (detail.inputRequests !== undefined) answer.inputRequests = detail.inputRequests;
  return answer as Result;
}

/** The `tasks/cancel` answer of the extension: an empty acknowledgement. */
export const cancelAck = (): Result => ({});

/** Results of {@link createdTaskResult}, which `tools/call` may return instead of a `CallToolResult`. */
const flatCreated = new WeakSet<object>();

/** A created task as the extension answers `tools/call`: flat, with `resultType: "task"`. */
export function createdTaskResult(created: CreateTaskResult): Result {
  const result = { resultType: 'task', ...flatTask(created.task) } as Result;
  flatCreated.add(result);
  return result;
}

/** Whether `tools/call` returned {@link createdTaskResult}. */
export const isFlatCreatedTask = (result: unknown): boolean =>
  typeof result === 'object' && result !== null && flatCreated.has(result);
