/**
 * One remote tool call run as an MCP task (the 2025-11-25 Tasks flow): `tools/call` with
 * `params.task`, `tasks/get` polled at the server's `pollInterval` (within bounds),
 * `tasks/result` at the end. A task waiting for input suspends the local call with the
 * server's request; resuming answers that request and follows the same task. Aborting
 * the call sends `tasks/cancel`. See docs/decisions/098.
 */
import { randomUUID } from 'node:crypto';
import {
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
  isCallToolResult,
} from '@modelcontextprotocol/client';
import type { Progress, SuspendRequest } from '../../../../task/index.ts';
import {
  ownField,
  readResult,
  readResume,
  readServerProgress,
  readTask,
  UnfollowableTask,
} from './task-answers.ts';
import type { HeldInput, TaskInputs } from './task-inputs.ts';

/** The task requests, sent through the client's connection. */
export interface TaskRequests {
  /** `tools/call` with `params.task`: answers a `CreateTaskResult` (or, from some servers, the result). */
  create(
    params: {
      name: string;
      arguments: Record<string, unknown>;
      task: { ttl?: number };
      _meta: { progressToken: string };
    },
    signal: AbortSignal,
  ): Promise<unknown>;
  get(taskId: string, signal: AbortSignal): Promise<unknown>;
  /**
   * Routes the server's `notifications/progress` for `token` to `listener` until the
   * returned function is called.
   */
  listenProgress(token: string, listener: (params: unknown) => void): () => void;
  result(taskId: string, signal: AbortSignal): Promise<unknown>;
  cancel(taskId: string): Promise<unknown>;
}

/** How task calls wait, from `mcpClient({ tasks })`. */
export interface TaskTiming {
  /** `params.task.ttl`: how long the server keeps the task; the server's default when unset. */
  ttlMs?: number;
  /** The wait between polls when the server suggests none. */
  pollIntervalMs: number;
  /** The longest wait between polls, whatever the server suggests. */
  maxPollIntervalMs: number;
  /** How long one call follows its task before cancelling it. */
  timeoutMs: number;
}

/** What the local call offers the task: its signal, resume value, progress and suspension. */
export interface TaskCallContext {
  signal: AbortSignal;
  resumeValue?: unknown;
  progress(update: Progress): void;
  suspend(request: SuspendRequest): never;
}

/**
 * The payload of a call suspended because its remote task needs input: the task, and
 * the server's request (an elicitation form: `message`, `requestedSchema`).
 */
export interface RemoteTaskInput {
  /** The remote task waiting for the answer. */
  taskId: string;
  /** The remote tool. */
  tool: string;
  /** The server's question, without its `_meta`. */
  request: ElicitRequest['params'];
}

/**
 * The value to resume such a call with: the payload's `taskId` and the answer to the
 * server's request. The resumed call answers the same task and follows it to its end.
 *
 * @example
 * ```ts
 * import type { PendingCall } from 'fino:ai/agent';
 * import type { RemoteTaskInput, RemoteTaskResume } from 'fino:ai/mcp';
 *
 * function confirm(call: PendingCall) {
 *   const { taskId } = call.payload as RemoteTaskInput;
 *   const resume: RemoteTaskResume = { taskId, answer: { action: 'accept', content: { confirm: true } } };
 *   return { [call.toolCallId]: { resume } }; // bot.resume(state, decisions)
 * }
 * ```
 */
export interface RemoteTaskResume {
  taskId: string;
  answer: ElicitResult;
}

/** The shortest wait between polls, whatever the server suggests (no busy loop). */
const MIN_POLL_MS = 10;
/**
 * Runs `params` as a remote task and answers its `CallToolResult`. A task that ends
 * `failed` or `cancelled`, times out, or is answered with something unusable becomes an
 * `isError` result naming the task; an abort of `ctx.signal` cancels the task and
 * rethrows the signal's reason.
 */
export async function runRemoteTask(
  params: { name: string; arguments: Record<string, unknown> },
  ctx: TaskCallContext,
  requests: TaskRequests,
  inputs: TaskInputs,
  timing: TaskTiming,
): Promise<CallToolResult> {
  const resume =
    ctx.resumeValue === undefined ? undefined : readResume(params.name, ctx.resumeValue);
  const timeout = AbortSignal.timeout(timing.timeoutMs);
  const deadline = AbortSignal.any([ctx.signal, timeout]);
  const progress = taskProgress(ctx);
  // The token stays valid for the task's lifetime (2025-11-25). A call resumed in another
  // process does not know it, and reports the task's status messages only.
  const progressToken = `fino-task:${randomUUID()}`;
  const stopListening = requests.listenProgress(progressToken, progress.fromServer);
  try {
    let taskId: string;
    if (resume) {
      taskId = resume.taskId;
    } else {
      const task = timing.ttlMs === undefined ? {} : { ttl: timing.ttlMs };
      let created: unknown;
      // Not aborted by the call's signal: a task created after an abort is still cancelled.
      const creating = requests.create({ ...params, task, _meta: { progressToken } }, timeout);
      try {
        created = await untilAborted(creating, ctx.signal);
      } catch (error) {
        if (ctx.signal.aborted) {
          void creating.then(
            (late) => cancelLate(late, requests),
            () => {},
          );
          throw ctx.signal.reason;
        }
        if (!timeout.aborted) throw error;
        return errorResult(
          `The remote tool "${params.name}" did not start its task within ${timing.timeoutMs} ms (tasks.timeoutMs).`,
        );
      }
      // A server may run a call it could have made a task at once; its result is the answer.
      if (isCallToolResult(created)) return created;
      try {
        taskId = readTask(ownField(created, 'task'), 'tools/call').taskId;
      } catch (error) {
        if (!(error instanceof UnfollowableTask)) throw error;
        return errorResult(
          `The remote tool "${params.name}" did not start a task: ${error.message}.`,
        );
      }
    }
    const call: FollowedCall = { taskId, tool: params.name, ctx, progress, deadline };
    return await followOrCancel(call, resume?.answer, requests, inputs, timing);
  } finally {
    stopListening();
  }
}

/** One local call following one remote task. */
interface FollowedCall {
  taskId: string;
  tool: string;
  ctx: TaskCallContext;
  progress: TaskProgress;
  /** The call's signal, or `tasks.timeoutMs`. */
  deadline: AbortSignal;
}

/** Follows the task; cancels it when the call stops following it other than by suspending. */
async function followOrCancel(
  call: FollowedCall,
  answer: ElicitResult | undefined,
  requests: TaskRequests,
  inputs: TaskInputs,
  timing: TaskTiming,
): Promise<CallToolResult> {
  const { taskId, tool, ctx, deadline } = call;
  inputs.follow(taskId);
  try {
    return await follow(call, answer, requests, inputs, timing);
  } catch (error) {
    if ((error as Error | undefined)?.name === 'SuspendSignal') throw error;
    // Nobody follows the task any more: cancel it (best effort: it may have ended).
    inputs.cancel(taskId);
    const cancelled = requests.cancel(taskId).catch(() => {});
    if (ctx.signal.aborted) throw ctx.signal.reason; // at once: the caller is gone
    await cancelled;
    const task = `The remote task ${JSON.stringify(taskId)} of "${tool}"`;
    if (deadline.aborted) {
      return errorResult(`${task} did not finish within ${timing.timeoutMs} ms; it was cancelled.`);
    }
    if (error instanceof UnfollowableTask) {
      return errorResult(`${task} could not be followed: ${error.message}; it was cancelled.`);
    }
    throw new Error(
      `following the remote task ${JSON.stringify(taskId)} failed (tasks/cancel was sent): ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  } finally {
    inputs.unfollow(taskId);
  }
}

async function follow(
  { taskId, tool, ctx, progress, deadline }: FollowedCall,
  answer: ElicitResult | undefined,
  requests: TaskRequests,
  inputs: TaskInputs,
  timing: TaskTiming,
): Promise<CallToolResult> {
  let lastMessage: string | undefined;
  let unanswered = answer;
  for (;;) {
    const task = readTask(await requests.get(taskId, deadline), 'tasks/get', taskId);
    if (task.statusMessage !== undefined && task.statusMessage !== lastMessage) {
      lastMessage = task.statusMessage;
      progress.status(task.statusMessage);
    }
    const wait = pollWait(task.pollInterval, timing);
    switch (task.status) {
      case 'completed':
        return readResult(await requests.result(taskId, deadline), taskId);
      case 'failed':
      case 'cancelled':
        return errorResult(
          `The remote task ${JSON.stringify(taskId)} of "${tool}" ended ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : '.'}`,
        );
      case 'input_required': {
        const input = await inputs.next(taskId, deadline, (signal) =>
          requests.result(taskId, signal),
        );
        if (input === undefined) {
          await sleep(wait, deadline); // the task moved on, or its request never came
        } else if (unanswered !== undefined) {
          input.respond(unanswered);
          unanswered = undefined;
        } else {
          suspendFor(input, taskId, tool, ctx, inputs);
        }
        break;
      }
      default:
        await sleep(wait, deadline);
    }
  }
}

/** `promise`, or a rejection with `signal`'s reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** Cancels the task a `tools/call` answered after its caller had gone. */
function cancelLate(created: unknown, requests: TaskRequests): void {
  const taskId = ownField(ownField(created, 'task'), 'taskId');
  if (typeof taskId === 'string') requests.cancel(taskId).catch(() => {});
}

/** What the task tells the call's `ctx.progress()`. */
interface TaskProgress {
  /** A `notifications/progress` for the call's token: forwarded when well-formed. */
  fromServer(params: unknown): void;
  /** A new status message: forwarded with the latest progress (or a count of messages). */
  status(message: string): void;
}

function taskProgress(ctx: TaskCallContext): TaskProgress {
  let messages = 0;
  let latest: { progress: number; total?: number } | undefined;
  const report = (update: Progress) => {
    try {
      ctx.progress(update);
    } catch {
      // A listener's failure is not the task's.
    }
  };
  return {
    fromServer(params) {
      const update = readServerProgress(params);
      if (update === undefined) return;
      latest = { progress: update.progress };
      if (update.total !== undefined) latest.total = update.total;
      report(update);
    },
    status(message) {
      messages++;
      report({ ...(latest ?? { progress: messages }), message });
    },
  };
}

/** Suspends the local call with the server's request, which stays held for a resume. */
function suspendFor(
  input: HeldInput,
  taskId: string,
  tool: string,
  ctx: TaskCallContext,
  inputs: TaskInputs,
): never {
  inputs.hold(taskId, input);
  const { _meta, ...request } = input.params as ElicitRequest['params'] & { _meta?: unknown };
  const payload: RemoteTaskInput = { taskId, tool, request: request as ElicitRequest['params'] };
  const message = typeof request.message === 'string' ? request.message : '';
  return ctx.suspend({
    reason: message || `The remote tool "${tool}" needs input to continue.`,
    payload,
  });
}

/**
 * The wait before the next poll: the server's `pollInterval` (else `pollIntervalMs`),
 * within [10 ms, `maxPollIntervalMs`] — never a busy loop, never a stalled call.
 */
export function pollWait(suggested: number | undefined, timing: TaskTiming): number {
  const wanted = suggested ?? timing.pollIntervalMs;
  return Math.min(Math.max(wanted, MIN_POLL_MS), timing.maxPollIntervalMs);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
