/**
 * How an `mcpClient()` calls a remote tool: directly (`tools/call`, its progress routed
 * to `ctx.progress()`), or as an MCP task followed to its end when the tool declares
 * `execution.taskSupport` and the server takes task calls (decision 098). A call the
 * caller approved is remembered while it runs, so the server's approval request for it
 * is answered without asking again.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { TASKS_EXTENSION } from '../protocol/index.ts';
import type { ApprovedCalls } from './approved-calls.ts';
import type { RemoteCallRequest } from './remote-tool.ts';
import { refusedOutputMessage } from './sdk-validator.ts';
import type { ListenProgress } from './server-messages.ts';
import type { TaskExtensionClient } from './task-extension-client.ts';
import type { AnswerTaskQuestion } from './task-questions.ts';
import { coreTaskRequests, extensionTaskRequests } from './task-requests.ts';
import {
  readServerProgress,
  runRemoteTask,
  type TaskInputs,
  type TaskRequests,
  type TaskTiming,
} from './tasks/index.ts';

/** What a remote call needs of the client. */
export interface RemoteCallSetting {
  sdk: TaskExtensionClient;
  /** The deadline of one request (`timeoutMs`), when set. */
  timeout: number | undefined;
  /** Task calls' timing; `undefined` when the client calls no tasks (`tasks: false`). */
  timing: TaskTiming | undefined;
  approved: ApprovedCalls;
  inputs: TaskInputs;
  listenProgress: ListenProgress;
  /** How the client answers a remote task's question on 2026-07-28 (decision 243). */
  answerTaskQuestion: AnswerTaskQuestion;
}

/** The call context a remote call reports progress to and suspends through. */
type CallContext = Parameters<typeof runRemoteTask>[1];

/** Calls remote tools over one client connection. */
export class RemoteCalls {
  readonly #setting: RemoteCallSetting;
  readonly #coreTasks: TaskRequests;
  readonly #extensionTasks: TaskRequests;

  constructor(setting: RemoteCallSetting) {
    this.#setting = setting;
    this.#coreTasks = coreTaskRequests(setting);
    this.#extensionTasks = extensionTaskRequests(setting);
  }

  /**
   * Whether this server takes task calls for tools: `capabilities.tasks.requests.tools.call`
   * on 2025 revisions, the Tasks extension on 2026-07-28 (decision 213).
   */
  serverTakesTasks(): boolean {
    const { sdk, timing } = this.#setting;
    const capabilities = sdk.getServerCapabilities() as
      | {
          tasks?: { requests?: { tools?: { call?: unknown } } };
          extensions?: Record<string, unknown>;
        }
      | undefined;
    if (timing === undefined) return false;
    if (sdk.modern) return typeof capabilities?.extensions?.[TASKS_EXTENSION] === 'object';
    return typeof capabilities?.tasks?.requests?.tools?.call === 'object';
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
      const requests = this.#taskRequestsFor(taskSupport);
      if (timing !== undefined && requests !== undefined) {
        return await runRemoteTask(params, ctx, requests, inputs, timing);
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

  /**
   * How a call follows its task, or `undefined` for a direct call. On 2025 revisions a
   * tool declaring `execution.taskSupport` is called as a task. On 2026-07-28 tools carry
   * no `execution`: every call opts into the Tasks extension and the server decides; a
   * task's questions are answered through `tasks/update` (decisions 213, 243).
   */
  #taskRequestsFor(taskSupport: RemoteCallRequest['taskSupport']): TaskRequests | undefined {
    if (!this.serverTakesTasks()) return undefined;
    if (this.#setting.sdk.modern) return this.#extensionTasks;
    return taskSupport === 'required' || taskSupport === 'optional' ? this.#coreTasks : undefined;
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
