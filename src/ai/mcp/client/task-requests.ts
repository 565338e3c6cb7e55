/**
 * The requests a remote task call sends (`TaskRequests`), in the two forms of MCP Tasks:
 * the core `tasks/*` methods of the 2025 revisions (decision 098), and the Tasks
 * extension of 2026-07-28 (SEP-2663, decision 213), whose flat answers are read back
 * into the 2025 forms, so one follower (`runRemoteTask`) serves both.
 */
import type { ListenProgress } from './server-messages.ts';
import { createdTaskOf, type TaskExtensionClient } from './task-extension-client.ts';
import { type AnswerTaskQuestion, TaskQuestions } from './task-questions.ts';
import { ownField, type TaskRequests } from './tasks/index.ts';

/** What the task requests need of the client. */
export interface TaskRequestSetting {
  sdk: TaskExtensionClient;
  /** The deadline of one request (`timeoutMs`), when set. */
  timeout: number | undefined;
  listenProgress: ListenProgress;
  /** How the client answers a remote task's question on 2026-07-28. */
  answerTaskQuestion: AnswerTaskQuestion;
}

/** The core `tasks/*` requests of the 2025 revisions. */
export function coreTaskRequests({
  sdk,
  timeout,
  listenProgress,
}: TaskRequestSetting): TaskRequests {
  const send = sender(sdk, timeout);
  return {
    create: (params, signal) => send('tools/call', params, signal),
    get: (taskId, signal) => send('tasks/get', { taskId }, signal),
    result: (taskId, signal) => send('tasks/result', { taskId }, signal),
    listenProgress,
    cancel: (taskId) => send('tasks/cancel', { taskId }, undefined, timeout ?? CANCEL_TIMEOUT_MS),
  };
}

/**
 * The Tasks extension's requests, each opted in by its client capabilities: `tools/call`
 * answers a created task (no `params.task`: the server decides), `tasks/get` inlines the
 * result, and `tasks/result` is a `tasks/get` read for its `result` that starts answering
 * the questions of a task waiting for input, each sent with `tasks/update` (decision 243).
 */
export function extensionTaskRequests({
  sdk,
  timeout,
  listenProgress,
  answerTaskQuestion,
}: TaskRequestSetting): TaskRequests {
  const send = sender(sdk, timeout);
  const optedIn = (params: { _meta?: Record<string, unknown> } & Record<string, unknown>) => ({
    ...params,
    _meta: { ...params._meta, ...sdk.tasksOptIn() },
  });
  const get = async (taskId: string, signal: AbortSignal) =>
    coreTask(await send('tasks/get', optedIn({ taskId }), signal));
  const questions = new TaskQuestions(answerTaskQuestion, (taskId, key, answer) =>
    send('tasks/update', optedIn({ taskId, inputResponses: { [key]: answer } }), undefined),
  );
  return {
    // Through `callTool`, so a result answered at once is checked like a direct call's.
    async create({ task: _ttlIsTheServers, ...params }, signal) {
      try {
        return await sdk.callTool(
          { ...optedIn(params), name: params.name },
          { signal, ...deadline(timeout) },
        );
      } catch (error) {
        const created = createdTaskOf(error);
        if (created === undefined) throw error;
        return { task: coreTask(created) };
      }
    },
    get,
    // A question routed to the following call reaches it through `TaskInputs`, as on 2025.
    async result(taskId, signal) {
      const task = await get(taskId, signal);
      if (ownField(task, 'status') === 'input_required') {
        questions.answer(taskId, ownField(task, 'inputRequests'));
      }
      return ownField(task, 'result');
    },
    listenProgress,
    cancel: (taskId) =>
      send('tasks/cancel', optedIn({ taskId }), undefined, timeout ?? CANCEL_TIMEOUT_MS),
  };
}

/**
 * A task of the extension in the 2025 field names (`pollInterval`, `ttl`), its inlined
 * `result` kept, and a failed task's `error.message` as its status message. Anything
 * else is returned as is, for `runRemoteTask` to refuse field by field.
 */
function coreTask(flat: unknown): unknown {
  if (typeof flat !== 'object' || flat === null || Array.isArray(flat)) return flat;
  const { pollIntervalMs, ttlMs, error, ...task } = flat as Record<string, unknown>;
  const view: Record<string, unknown> = { ...task };
  if (pollIntervalMs !== undefined) view.pollInterval = pollIntervalMs;
  if (ttlMs !== undefined) view.ttl = ttlMs;
  const message = ownField(error, 'message');
  if (view.statusMessage === undefined && typeof message === 'string') {
    view.statusMessage = message;
  }
  return view;
}

/**
 * Sends one request and answers its result unchecked: task answers are read field by
 * field. `tasks/cancel` is sent after the call's signal has gone, with its own deadline.
 */
function sender(sdk: TaskExtensionClient, timeout: number | undefined) {
  return (
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal | undefined,
    within = timeout,
  ) =>
    sdk.request({ method, params } as never, ANY_RESULT, {
      ...(signal === undefined ? {} : { signal }),
      ...deadline(within),
    }) as Promise<unknown>;
}

const deadline = (timeout: number | undefined) => (timeout === undefined ? {} : { timeout });

/** Accepts any result: task answers are checked field by field by `runRemoteTask`. */
const ANY_RESULT = {
  '~standard': { version: 1, vendor: 'fino', validate: (value: unknown) => ({ value }) },
} as const;

/** How long `tasks/cancel` may take when the client has no `timeoutMs`. */
const CANCEL_TIMEOUT_MS = 10_000;
