/**
 * Durable MCP Tasks: runs task-augmented `tools/call`s in the background, one session
 * run per task, and answers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`
 * from the store. Approvals and suspensions wait in the store as the run's pending call,
 * answered once — through `tasks/result` (elicitation) or `fino sessions approve`. A
 * poller continues tasks decided elsewhere and tasks whose server died (decision 096).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type {
  CallToolResult,
  CreateTaskResult,
  ElicitResult,
  ListTasksResult,
  Task,
} from '@modelcontextprotocol/server';
import { controlFlowName, errorMessage } from '../../../internal/thrown-value.ts';
import type { AnyTask, InvokeContext, Progress } from '../../../task/index.ts';
import { argsHash, type Decision, type PendingCall } from '../../agent/index.ts';
import {
  type McpTaskRecord,
  type McpTaskStore,
  SessionError,
  type StoredRun,
} from '../../session/index.ts';
import { approvalMeta } from '../approval-meta.ts';
import {
  ANSWER_KEY,
  ANSWER_SCHEMA,
  APPROVAL_SCHEMA,
  type ApprovalMode,
  approvalQuestion,
  checkedResult,
} from '../call-tool.ts';
import { errorResult } from '../content.ts';
import type { ProgressNotifier } from '../progress-notifier.ts';
import type { OutputValidator } from '../structured-output.ts';
import {
  decodeCursor,
  encodeCursor,
  relatedTask,
  type TaskOwner,
  TERMINAL,
  taskStatus,
  taskTtl,
  terminalTask,
  toTask,
  unknownTask,
} from './task-wire.ts';

/** A served tool as the runner needs it. */
export interface TaskTool {
  tool: AnyTask;
  outputValidator: OutputValidator;
}

/** How the runner works; durations already checked. */
export interface TaskRunnerSetting {
  /** The task records (opened on first use). */
  records(): McpTaskStore;
  /** The tool served under `name` now. */
  tool(name: string): TaskTool | undefined;
  approval: ApprovalMode;
  leaseMs: number;
  maxTtlMs: number;
  pollIntervalMs: number;
}

/** Where a task created here tells its client about itself, while that client is connected. */
export interface TaskChannel {
  status(task: Task): void;
  progress?: ProgressNotifier;
}

/** Asks the client of a `tasks/result` request to fill a form. */
export type Asker = (params: {
  message: string;
  requestedSchema: Record<string, unknown>;
  _meta: Record<string, unknown>;
}) => Promise<ElicitResult>;

/** The id of the one call of a task's run, as `fino sessions approve <taskId> call` names it. */
export const TASK_CALL_ID = 'call';

const PAGE_SIZE = 50;
/** Results this runner creates, which `tools/call` may return instead of a `CallToolResult`. */
const created = new WeakSet<object>();

/** Whether `tools/call` returned a task (which the SDK's result check must let through). */
export const isCreatedTask = (result: unknown): result is CreateTaskResult =>
  typeof result === 'object' && result !== null && created.has(result);

/** Runs and serves MCP tasks for one `mcpServer()`. */
export class TaskRunner {
  readonly worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  readonly #setting: TaskRunnerSetting;
  /** Tasks executing in this process, by id. */
  readonly #running = new Map<string, AbortController>();
  /** How to reach the clients that created tasks here, until the task ends. */
  readonly #channels = new Map<string, TaskChannel>();
  /** Who waits for a task to change (`tasks/result`). */
  readonly #waiters = new Map<string, Set<() => void>>();
  /** Tasks whose question is being put to a client right now. */
  readonly #asking = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;
  #ticks = 0;

  constructor(setting: TaskRunnerSetting) {
    this.#setting = setting;
  }

  /** Starts the poller that continues orphaned and decided tasks and drops expired ones. */
  activate(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.#tick(), this.#setting.pollIntervalMs);
    this.#timer.unref();
    void this.#tick();
  }

  /** Stops the poller. Tasks running here go on; unfinished ones are taken over after a restart. */
  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Creates a task for a `tools/call` with `params.task`, starts it and answers at once. */
  async create(
    served: TaskTool,
    args: unknown,
    taskParam: unknown,
    owner: TaskOwner,
    channel: TaskChannel,
  ): Promise<CreateTaskResult> {
    const ttlMs = taskTtl(taskParam, this.#setting.maxTtlMs);
    const records = this.#setting.records();
    const taskId = `task_${randomBytes(16).toString('hex')}`;
    await records.create({
      taskId,
      ownerKey: owner.ownerKey,
      sessionId: owner.sessionId,
      toolName: served.tool.name,
      arguments: args,
      ttlMs,
      worker: this.worker,
      leaseMs: this.#setting.leaseMs,
    });
    this.activate();
    this.#channels.set(taskId, channel);
    const record = await records.get(taskId);
    if (!record) throw new Error(`task ${taskId} vanished right after it was created`);
    // A store failure while recording the outcome leaves the task leased: the poller takes
    // it over after the lease, under the restart rule (decision 096).
    void this.#execute(record, { approved: false }).catch(() => undefined);
    const result: CreateTaskResult = { task: toTask(record, this.#setting.pollIntervalMs) };
    created.add(result);
    return result;
  }

  /** `tasks/get`. */
  async get(taskId: string, owner: TaskOwner): Promise<Task> {
    this.activate();
    return toTask(await this.#find(taskId, owner), this.#setting.pollIntervalMs);
  }

  /** `tasks/list`: the owner's tasks, oldest first, a page at a time. */
  async list(cursor: unknown, owner: TaskOwner): Promise<ListTasksResult> {
    this.activate();
    const after = decodeCursor(cursor);
    const page = await this.#setting.records().list(owner.ownerKey, {
      sessionId: owner.ownerKey === 'anonymous' ? owner.sessionId : undefined,
      after,
      limit: PAGE_SIZE + 1,
    });
    const tasks = page.slice(0, PAGE_SIZE);
    const result: ListTasksResult = {
      tasks: tasks.map((record) => toTask(record, this.#setting.pollIntervalMs)),
    };
    const last = tasks[tasks.length - 1];
    if (page.length > PAGE_SIZE) result.nextCursor = encodeCursor(last);
    return result;
  }

  /** `tasks/cancel`: aborts a task that has not ended; `-32602` for one that has. */
  async cancel(taskId: string, owner: TaskOwner): Promise<Task> {
    this.activate();
    const record = await this.#find(taskId, owner);
    const status = taskStatus(record.run.status);
    if (TERMINAL.includes(status)) throw terminalTask(taskId, status);
    try {
      await this.#setting.records().runs.cancel(taskId, { by: `mcp:${owner.ownerKey}` });
    } catch (error) {
      if (error instanceof SessionError && error.code === 'NOT_PENDING') {
        throw terminalTask(taskId, 'completed');
      }
      throw error;
    }
    this.#running.get(taskId)?.abort();
    return this.#changed(taskId);
  }

  /**
   * `tasks/result`: waits until the task ends and answers its result. While the task
   * needs input, asks the client (`ask`, when it can) and records its answer as the
   * pending call's decision — unless someone decided it first.
   */
  async result(
    taskId: string,
    owner: TaskOwner,
    ask: Asker | undefined,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    this.activate();
    for (;;) {
      const record = await this.#find(taskId, owner);
      const status = taskStatus(record.run.status);
      if (status === 'completed') {
        const result = this.#setting.records().resultOf(record) as CallToolResult;
        return { ...result, _meta: { ...result._meta, ...relatedTask(taskId) } };
      }
      if (status === 'failed' || status === 'cancelled') {
        const why =
          status === 'failed'
            ? `Task "${taskId}" failed: ${record.run.error ?? 'no reason recorded'}`
            : `Task "${taskId}" was cancelled.`;
        return { ...errorResult(why), _meta: relatedTask(taskId) };
      }
      if (status === 'input_required' && ask && !this.#asking.has(taskId)) {
        await this.#ask(record, ask);
        continue;
      }
      await this.#waitForChange(taskId, signal);
    }
  }

  async #find(taskId: string, owner: TaskOwner): Promise<McpTaskRecord> {
    const record = await this.#setting.records().get(taskId, owner.ownerKey);
    if (!record) throw unknownTask(taskId);
    return record;
  }

  /** Puts the task's pending question to a client and records the answer, once. */
  async #ask(record: McpTaskRecord, ask: Asker): Promise<void> {
    const pending = record.run.pending.find((p) => p.decision === undefined);
    if (!pending) return;
    const { call } = pending;
    const served = this.#setting.tool(record.toolName);
    this.#asking.add(record.taskId);
    let decision: Decision;
    try {
      const form =
        call.kind === 'approval'
          ? {
              message: served
                ? approvalQuestion(served.tool, call.args)
                : `Allow "${call.toolName}" with ${JSON.stringify(call.args)}?`,
              requestedSchema: APPROVAL_SCHEMA,
              _meta: { ...approvalMeta(call.toolName, call.args), ...relatedTask(record.taskId) },
            }
          : {
              message: call.reason ?? `"${call.toolName}" needs your input to continue.`,
              requestedSchema: ANSWER_SCHEMA,
              _meta: relatedTask(record.taskId),
            };
      const answer = await ask(form);
      const accepted = answer.action === 'accept';
      decision =
        call.kind === 'approval'
          ? accepted && answer.content?.approve === true
            ? { approve: true }
            : { reject: 'The user rejected the call.' }
          : accepted
            ? { resume: answer.content?.[ANSWER_KEY] }
            : { reject: 'The user did not answer.' };
    } catch {
      // The client could not answer now (it left, or timed out): ask again later.
      this.#asking.delete(record.taskId);
      await delay(this.#setting.pollIntervalMs);
      return;
    }
    this.#asking.delete(record.taskId);
    await this.#decide(record.taskId, decision, 'mcp client');
  }

  /** Records a decision on the task's pending call; the first one wins, later ones are dropped. */
  async #decide(taskId: string, decision: Decision, by: string): Promise<void> {
    try {
      const { run, claimed } = await this.#setting.records().runs.decide(
        { runId: taskId, toolCallId: TASK_CALL_ID },
        decision,
        { by },
        {
          owner: this.worker,
          leaseMs: this.#setting.leaseMs,
        },
      );
      if (claimed) void this.#continue(run, false).catch(() => undefined);
    } catch (error) {
      const code = (error as SessionError).code;
      if (code !== 'ALREADY_DECIDED' && code !== 'NOT_PENDING' && code !== 'NOT_FOUND') throw error;
    }
  }

  /** Continues a task this worker has just claimed: decided, or interrupted (its worker died). */
  async #continue(run: StoredRun, interrupted: boolean): Promise<void> {
    const records = this.#setting.records();
    const record = await records.get(run.runId);
    if (!record) return;
    const served = await this.#servedOrFail(record);
    if (!served) return;
    await records.setStatusMessage(record.taskId, undefined); // the question is answered
    delete record.statusMessage;
    const current = run.pending[run.pending.length - 1];
    const decision = current?.decision;
    const approved =
      current?.call.kind === 'suspend' || (decision !== undefined && 'approve' in decision);
    if (interrupted) {
      if (served.tool.idempotent !== true) {
        await this.#finish(record, {
          status: 'failed',
          error:
            'interrupted by a server restart; it may have partly run, and it is not declared idempotent, so it was not run again',
        });
        return;
      }
      const resume = decision !== undefined && 'resume' in decision ? decision : undefined;
      await this.#execute(record, { approved, resume });
      return;
    }
    if (decision !== undefined && 'reject' in decision) {
      const what =
        current.call.kind === 'approval'
          ? `The call to "${record.toolName}" was rejected (${decision.reject}). It was not executed.`
          : `"${record.toolName}" stopped: ${decision.reject}`;
      await this.#finish(record, { status: 'completed', result: errorResult(what) });
      return;
    }
    await this.#execute(record, {
      approved: true,
      resume: decision !== undefined && 'resume' in decision ? decision : undefined,
    });
  }

  /** The task's tool as served now; the task fails when the server no longer serves it. */
  async #servedOrFail(record: McpTaskRecord) {
    const served = this.#setting.tool(record.toolName);
    if (!served) {
      await this.#finish(record, {
        status: 'failed',
        error: `the tool "${record.toolName}" is no longer served`,
      });
    }
    return served;
  }

  /** Runs the task's tool while this worker holds the task, and records how it ended. */
  async #execute(
    record: McpTaskRecord,
    how: { approved: boolean; resume?: { resume: unknown } },
  ): Promise<void> {
    const { taskId } = record;
    const served = await this.#servedOrFail(record);
    if (!served) return;
    const { tool } = served;
    const args = record.arguments;
    const pendingCall = (kind: PendingCall['kind'], reason?: string, payload?: unknown) => {
      const call: PendingCall = {
        kind,
        toolCallId: TASK_CALL_ID,
        toolName: tool.name,
        args,
        argsHash: argsHash(args),
      };
      if (reason !== undefined) call.reason = reason;
      if (payload !== undefined) call.payload = payload;
      if (tool.risk !== undefined) call.risk = tool.risk;
      if (tool.sideEffects !== undefined) call.sideEffects = tool.sideEffects;
      return call;
    };

    if (!how.approved && this.#setting.approval !== 'client' && tool.requiresApproval) {
      if (this.#setting.approval === 'deny') {
        const refused = `Tool "${tool.name}" requires approval, and this server refuses such calls (approval: 'deny'). It was not executed.`;
        await this.#finish(record, { status: 'completed', result: errorResult(refused) });
      } else {
        await this.#finish(record, {
          status: 'input_required',
          call: pendingCall('approval'),
          message: `Waiting for approval: ${approvalQuestion(tool, args)}`,
        });
      }
      return;
    }

    const controller = new AbortController();
    this.#running.set(taskId, controller);
    const { leaseMs } = this.#setting;
    const heartbeat = setInterval(() => {
      this.#setting
        .records()
        .runs.renew(taskId, this.worker, leaseMs)
        .then(
          (held) => held || controller.abort(), // cancelled, or taken over elsewhere
          () => {}, // retried at the next beat
        );
    }, leaseMs / 3);
    heartbeat.unref();
    const progress = this.#progress(record);
    const context: InvokeContext = {
      signal: controller.signal,
      toolCallId: taskId,
      runId: taskId,
      step: 0,
      messages: [],
      progress: progress.report,
    };
    if (how.resume) context.resumeValue = how.resume.resume;
    try {
      const result = await tool.invoke(args, context);
      await progress.flush();
      if (controller.signal.aborted) return; // cancelled: the run says so already
      await this.#finish(record, {
        status: 'completed',
        result: checkedResult(tool.name, result, served.outputValidator),
      });
    } catch (error) {
      await progress.flush();
      if (controller.signal.aborted) return;
      if (controlFlowName(error) === 'SuspendSignal') {
        const question = (error as Error).message || `"${tool.name}" needs your input to continue.`;
        await this.#finish(record, {
          status: 'input_required',
          call: pendingCall('suspend', question, (error as { payload?: unknown }).payload),
          message: question,
        });
        return;
      }
      const failure = `Tool "${tool.name}" failed: ${errorMessage(error)}`;
      await this.#finish(record, { status: 'completed', result: errorResult(failure) });
    } finally {
      clearInterval(heartbeat);
      this.#running.delete(taskId);
    }
  }

  /** `ctx.progress()` of a task's tool: its status message, and progress to its client. */
  #progress(record: McpTaskRecord): ProgressNotifier {
    const channel = this.#channels.get(record.taskId);
    let latest: string | undefined;
    let writing: Promise<void> = Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const write = () => {
      timer = undefined;
      const message = latest;
      writing = this.#setting
        .records()
        .setStatusMessage(record.taskId, message)
        .then(() => void this.#changed(record.taskId).catch(() => undefined))
        .catch(() => undefined);
    };
    return {
      report: (update: Progress) => {
        channel?.progress?.report(update);
        latest =
          update.message ??
          `${update.progress}${update.total !== undefined ? ` of ${update.total}` : ''}`;
        timer ??= setTimeout(write, PROGRESS_WRITE_MS);
      },
      flush: async () => {
        if (timer) {
          clearTimeout(timer);
          write();
        }
        await writing;
        await channel?.progress?.flush();
      },
    };
  }

  /** Ends the task with `outcome` (when this worker still holds it) and tells who waits. */
  async #finish(
    record: McpTaskRecord,
    outcome:
      | { status: 'completed'; result: CallToolResult }
      | { status: 'input_required'; call: PendingCall; message: string }
      | { status: 'failed'; error: string },
  ): Promise<void> {
    const records = this.#setting.records();
    if (outcome.status === 'input_required') {
      await records.setStatusMessage(record.taskId, outcome.message);
    }
    await records.finish(record.taskId, this.worker, outcome);
    await this.#changed(record.taskId).catch(() => undefined);
  }

  /** Wakes the task's waiters and tells its client its status; returns the task. */
  async #changed(taskId: string): Promise<Task> {
    for (const wake of this.#waiters.get(taskId) ?? []) wake();
    const record = await this.#setting.records().get(taskId);
    if (!record) throw unknownTask(taskId);
    const task = toTask(record, this.#setting.pollIntervalMs);
    const channel = this.#channels.get(taskId);
    channel?.status(task);
    if (TERMINAL.includes(task.status)) this.#channels.delete(taskId);
    return task;
  }

  /** Resolves when the task changes here, or after a poll interval (it may change elsewhere). */
  #waitForChange(taskId: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const waiters = this.#waiters.get(taskId) ?? new Set();
      this.#waiters.set(taskId, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0) this.#waiters.delete(taskId);
        signal.removeEventListener('abort', aborted);
        resolve();
      };
      const aborted = () => {
        done();
        reject(signal.reason);
      };
      const timer = setTimeout(done, this.#setting.pollIntervalMs);
      waiters.add(done);
      signal.addEventListener('abort', aborted, { once: true });
    });
  }

  /** One round of the poller: continue what no worker holds, now and then drop expired tasks. */
  async #tick(): Promise<void> {
    if (this.#ticking) return;
    this.#ticking = true;
    try {
      const records = this.#setting.records();
      for (const { taskId, interrupted } of await records.orphans()) {
        if (this.#running.has(taskId)) continue;
        const run = await records.runs.claim(taskId, this.worker, this.#setting.leaseMs);
        if (run) void this.#continue(run, interrupted).catch(() => undefined);
      }
      if (this.#ticks++ % SWEEP_EVERY_TICKS === 0) await records.sweep();
    } catch {
      // The store is unreachable or a row unreadable: the next tick tries again.
    } finally {
      this.#ticking = false;
    }
  }
}

/** How long progress updates are gathered before the status message is written. */
const PROGRESS_WRITE_MS = 250;
/** The poller drops expired tasks every this many rounds. */
const SWEEP_EVERY_TICKS = 60;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
