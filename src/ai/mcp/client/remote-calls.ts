/**
 * How an `mcpClient()` calls a remote tool: directly (`tools/call`, its progress routed
 * to `ctx.progress()`), or as an MCP task followed to its end when the tool declares
 * `execution.taskSupport` and the server takes task calls (decision 098). A call the
 * caller approved is remembered while it runs, so the server's approval request for it
 * is answered without asking again.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { ApprovedCalls } from './approved-calls.ts';
import type { RemoteCallRequest } from './remote-tool.ts';
import { refusedOutputMessage } from './sdk-validator.ts';
import type { ListenProgress } from './server-messages.ts';
import {
  readServerProgress,
  runRemoteTask,
  type TaskInputs,
  type TaskRequests,
  type TaskTiming,
} from './tasks/index.ts';

/** What a remote call needs of the client. */
export interface RemoteCallSetting {
  sdk: Client;
  /** The deadline of one request (`timeoutMs`), when set. */
  timeout: number | undefined;
  /** Task calls' timing; `undefined` when the client calls no tasks (`tasks: false`). */
  timing: TaskTiming | undefined;
  approved: ApprovedCalls;
  inputs: TaskInputs;
  listenProgress: ListenProgress;
}

/** The call context a remote call reports progress to and suspends through. */
type CallContext = Parameters<typeof runRemoteTask>[1];

/** Calls remote tools over one client connection. */
export class RemoteCalls {
  readonly #setting: RemoteCallSetting;
  readonly #tasks: TaskRequests;

  constructor(setting: RemoteCallSetting) {
    this.#setting = setting;
    this.#tasks = taskRequests(setting);
  }

  /** Whether this server takes task calls for tools (`capabilities.tasks.requests.tools.call`). */
  serverTakesTasks(): boolean {
    const tasks = this.#setting.sdk.getServerCapabilities()?.tasks as
      | { requests?: { tools?: { call?: unknown } } }
      | undefined;
    return this.#setting.timing !== undefined && typeof tasks?.requests?.tools?.call === 'object';
  }

  /** Calls the tool; a structured output the tool's schema refuses is an `isError` result. */
  async call(
    { taskSupport, ...params }: RemoteCallRequest,
    ctx: CallContext,
    isApproved: boolean,
  ): Promise<CallToolResult> {
    const { approved, timing, inputs } = this.#setting;
    const end = isApproved ? approved.begin(params.name, params.arguments) : undefined;
    try {
      if (
        timing !== undefined &&
        (taskSupport === 'required' || taskSupport === 'optional') &&
        this.serverTakesTasks()
      ) {
        return await runRemoteTask(params, ctx, this.#tasks, inputs, timing);
      }
      return await this.#callDirectly(params, ctx);
    } catch (error) {
      const refused = refusedOutputMessage(params.name, error);
      if (refused === undefined) throw error;
      return { content: [{ type: 'text' as const, text: refused }], isError: true };
    } finally {
      end?.();
    }
  }

  /** A plain `tools/call`; the server's progress for it reaches `ctx.progress()`. */
  async #callDirectly(
    params: { name: string; arguments: Record<string, unknown> },
    ctx: CallContext,
  ) {
    const progressToken = `fino-call:${randomUUID()}`;
    const stopListening = this.#setting.listenProgress(progressToken, (notification) => {
      const update = readServerProgress(notification);
      try {
        if (update !== undefined) ctx.progress(update);
      } catch {
        // A listener's failure is not the call's.
      }
    });
    try {
      return await this.#setting.sdk.callTool(
        { ...params, _meta: { progressToken } },
        { signal: ctx.signal, timeout: this.#setting.timeout },
      );
    } finally {
      stopListening();
    }
  }
}

/** The task requests `runRemoteTask` sends, over the client's connection. */
function taskRequests({ sdk, timeout, listenProgress }: RemoteCallSetting): TaskRequests {
  const requestOptions = (signal: AbortSignal) =>
    timeout === undefined ? { signal } : { signal, timeout };
  return {
    create: (params, signal) =>
      sdk.request({ method: 'tools/call', params } as never, ANY_RESULT, requestOptions(signal)),
    get: (taskId, signal) =>
      sdk.request(
        { method: 'tasks/get', params: { taskId } } as never,
        ANY_RESULT,
        requestOptions(signal),
      ),
    result: (taskId, signal) =>
      sdk.request(
        { method: 'tasks/result', params: { taskId } } as never,
        ANY_RESULT,
        requestOptions(signal),
      ),
    listenProgress,
    cancel: (taskId) =>
      sdk.request({ method: 'tasks/cancel', params: { taskId } } as never, ANY_RESULT, {
        timeout: timeout ?? CANCEL_TIMEOUT_MS,
      }),
  };
}

/** Accepts any result: task answers are checked field by field by `runRemoteTask`. */
const ANY_RESULT = {
  '~standard': { version: 1, vendor: 'fino', validate: (value: unknown) => ({ value }) },
} as const;

/** How long `tasks/cancel` may take when the client has no `timeoutMs`. */
const CANCEL_TIMEOUT_MS = 10_000;
