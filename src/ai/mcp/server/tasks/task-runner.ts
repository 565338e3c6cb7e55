/**
 * Durable MCP Tasks: runs task-augmented `tools/call`s in the background, one session
 * run per task, and answers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`
 * from the store. Approvals and suspensions wait in the store as the run's pending call,
 * answered once — through `tasks/result` (elicitation) or `fino sessions approve`. A
 * poller continues tasks decided elsewhere and tasks whose server died (decision 096).
 * How many run at once and how many an owner keeps: decision 116.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type {
  CallToolResult,
  CreateTaskResult,
  ListTasksResult,
  Task,
} from '@modelcontextprotocol/server';
import { sortableId } from '../../../../internal/sortable-id.ts';
import type { Decision } from '../../../agent/index.ts';
import { SessionError, type StoredRun } from '../../../session/index.ts';
import type { ApprovalMode } from '../call-tool.ts';
import { approvalGate, runTaskTool, type TaskOutcome, type TaskTool } from './task-execution.ts';
import type { TaskDetail } from './task-extension.ts';
import { decisionsFrom, inputRequestsOf } from './task-input-requests.ts';
import { TaskLeases } from './task-leases.ts';
import { TaskPoller } from './task-poller.ts';
import { type Asker, decisionFrom, rejectionFrom, taskQuestion } from './task-questions.ts';
import { StoredTaskQuota } from './task-quota.ts';
import { QUEUED_MESSAGE, resumption } from './task-resumption.ts';
import { type TaskSlotLimits, TaskSlots } from './task-slots.ts';
import type { McpTaskRecord, McpTaskStore } from './task-store.ts';
import { type TaskChannel, TaskUpdates } from './task-updates.ts';
import {
  decodeCursor,
  encodeCursor,
  endedResult,
  relatedTask,
  type TaskOwner,
  TERMINAL,
  taskStatus,
  taskTtl,
  terminalTask,
  tooManyTasks,
  toTask,
  unknownTask,
} from './task-wire.ts';

/** How the runner works; durations and limits already checked. */
export interface TaskRunnerSetting extends TaskSlotLimits {
  /** The task records (opened on first use). */
  records(): McpTaskStore;
  /** The tool served under `name` now. */
  tool(name: string): TaskTool | undefined;
  approval: ApprovalMode;
  leaseMs: number;
  maxTtlMs: number;
  pollIntervalMs: number;
  /** The most tasks one owner keeps stored (until they expire). */
  maxStoredPerOwner: number;
  /** The task store as `fino sessions --db` names it. */
  storeName: string;
}

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
  readonly #slots: TaskSlots;
  readonly #leases: TaskLeases;
  readonly #updates: TaskUpdates;
  /** Tasks queued or executing in this process, by id: aborting one stops it. */
  readonly #running = new Map<string, AbortController>();
  /** Tasks whose question is being put to a client right now. */
  readonly #asking = new Set<string>();
  readonly #quota: StoredTaskQuota;
  readonly #poller: TaskPoller;

  constructor(setting: TaskRunnerSetting) {
    this.#setting = setting;
    this.#slots = new TaskSlots(setting);
    this.#leases = new TaskLeases(() => setting.records().runs, this.worker, setting.leaseMs);
    this.#updates = new TaskUpdates(setting.records, setting.pollIntervalMs);
    this.#quota = new StoredTaskQuota(setting.maxStoredPerOwner);
    this.#poller = new TaskPoller({
      ...setting,
      worker: this.worker,
      isHere: (taskId) => this.#running.has(taskId),
      resume: (run, interrupted) => this.#continue(run, interrupted),
    });
  }

  /** Starts the poller that continues orphaned and decided tasks and drops expired ones. */
  activate(): void {
    this.#poller.activate();
  }

  /** Stops the poller. Tasks running here go on; unfinished ones are taken over after a restart. */
  close(): void {
    this.#poller.close();
  }

  /**
   * Creates a task for a `tools/call` with `params.task`, starts (or queues) it and
   * answers at once. `-32600` when the owner keeps too many tasks or the queue is full.
   */
  async create(
    served: TaskTool,
    args: unknown,
    taskParam: unknown,
    owner: TaskOwner,
    channel: TaskChannel,
  ): Promise<CreateTaskResult> {
    const ttlMs = taskTtl(taskParam, this.#setting.maxTtlMs);
    const { ownerKey } = owner;
    if (this.#slots.full) {
      throw tooManyTasks(
        `this server already has ${this.#slots.queued} tasks waiting to run (tasks.maxQueued); try again later`,
      );
    }
    const records = this.#setting.records();
    const taskId = sortableId('task_');
    await this.#quota.create(
      ownerKey,
      () => records.count(ownerKey),
      () =>
        records.create({
          taskId,
          ownerKey,
          sessionId: owner.sessionId,
          toolName: served.tool.name,
          arguments: args,
          ttlMs,
          worker: this.worker,
          leaseMs: this.#setting.leaseMs,
        }),
    );
    this.activate();
    this.#updates.open(taskId, channel);
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

  /** A task with its stored result or its run's error: the extension's `tasks/get` (decision 214). */
  async detail(taskId: string, owner: TaskOwner): Promise<TaskDetail> {
    const record = await this.#find(taskId, owner);
    const task = toTask(record, this.#setting.pollIntervalMs);
    if (task.status === 'completed') {
      return { task, result: this.#setting.records().resultOf(record) as CallToolResult };
    }
    if (task.status === 'failed')
      return { task, error: task.statusMessage ?? 'no reason recorded' };
    const tool = this.#setting.tool(record.toolName)?.tool;
    return task.status === 'input_required'
      ? { task, inputRequests: inputRequestsOf(record, tool) }
      : { task };
  }

  /**
   * The extension's `tasks/update` (decision 242): records the answers to the task's
   * outstanding questions, each once (the first decision wins); answers the keys ignored.
   */
  async update(taskId: string, owner: TaskOwner, responses: Record<string, unknown>) {
    const { decisions, ignored } = decisionsFrom(await this.#find(taskId, owner), responses);
    for (const { toolCallId, decision } of decisions) {
      await this.#decide(taskId, decision, 'mcp client', toolCallId);
    }
    return ignored;
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
    return this.#updates.changed(taskId);
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
      if (status === 'failed' || status === 'cancelled') return endedResult(record, status);
      if (status === 'input_required' && ask && !this.#asking.has(taskId)) {
        await this.#ask(record, ask);
        continue;
      }
      await this.#updates.wait(taskId, signal);
    }
  }

  async #find(taskId: string, owner: TaskOwner): Promise<McpTaskRecord> {
    const record = await this.#setting.records().get(taskId, owner.ownerKey);
    if (!record) throw unknownTask(taskId);
    return record;
  }

  /**
   * Puts the task's pending question to a client and records the answer, once. An answer
   * that does not fit the form is a rejection; a client that did not answer is asked later.
   */
  async #ask(record: McpTaskRecord, ask: Asker): Promise<void> {
    const pending = record.run.pending.find((p) => p.decision === undefined);
    if (!pending) return;
    const { call } = pending;
    this.#asking.add(record.taskId);
    let decision: Decision | undefined;
    try {
      const answer = await ask(
        taskQuestion(record.taskId, call, this.#setting.tool(record.toolName)?.tool),
      );
      decision = decisionFrom(call, answer);
    } catch (thrown) {
      decision = rejectionFrom(call, thrown);
    } finally {
      this.#asking.delete(record.taskId);
    }
    if (decision === undefined) {
      await delay(this.#setting.pollIntervalMs); // the client could not answer now: ask again later
      return;
    }
    await this.#decide(record.taskId, decision, 'mcp client', call.toolCallId);
  }

  /** Records a decision on a pending call of the task; the first one wins, later ones are dropped. */
  async #decide(taskId: string, decision: Decision, by: string, toolCallId: string): Promise<void> {
    try {
      const { run, claimed } = await this.#setting
        .records()
        .runs.decide(
          { runId: taskId, toolCallId },
          decision,
          { by },
          { owner: this.worker, leaseMs: this.#setting.leaseMs },
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
    const next = resumption(
      run,
      {
        toolName: record.toolName,
        statusMessage: record.statusMessage,
        idempotent: served.tool.idempotent === true,
      },
      interrupted,
    );
    await records.setStatusMessage(record.taskId, undefined); // the question is answered
    delete record.statusMessage;
    if ('finish' in next) await this.#finish(record, next.finish);
    else await this.#execute(record, next.execute);
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

  /**
   * Runs the task's tool while this worker holds the task — once a running slot is free —
   * and records how it ended.
   */
  async #execute(
    record: McpTaskRecord,
    how: { approved: boolean; resume?: { resume: unknown } },
  ): Promise<void> {
    const served = await this.#servedOrFail(record);
    if (!served) return;
    const gate = approvalGate(served.tool, record.arguments, {
      approval: this.#setting.approval,
      approved: how.approved,
      taskId: record.taskId,
      db: this.#setting.storeName,
    });
    if (gate) {
      await this.#finish(record, gate);
      return;
    }
    const { taskId, ownerKey } = record;
    const controller = new AbortController();
    this.#running.set(taskId, controller);
    const stopHolding = this.#leases.hold(taskId, () => controller.abort()); // cancelled, or taken over
    try {
      const { maxRunningPerOwner, maxRunning } = this.#setting;
      const started = await this.#slots.waitFor(
        ownerKey,
        controller.signal,
        `${QUEUED_MESSAGE} (at most ${maxRunningPerOwner} running tasks per client, ${maxRunning} in all).`,
        (message) => this.#updates.setStatus(taskId, message),
      );
      if (!started) return; // cancelled while queued
      try {
        const outcome = await runTaskTool(served, taskId, record.arguments, {
          resume: how.resume,
          signal: controller.signal,
          progress: this.#updates.progress(record),
        });
        if (outcome) await this.#finish(record, outcome);
      } finally {
        this.#slots.release(ownerKey);
      }
    } finally {
      stopHolding();
      this.#running.delete(taskId);
    }
  }

  /** Ends the task with `outcome` (when this worker still holds it) and tells who waits. */
  async #finish(record: McpTaskRecord, outcome: TaskOutcome): Promise<void> {
    const records = this.#setting.records();
    if (outcome.status === 'input_required') {
      await records.setStatusMessage(record.taskId, outcome.message);
    }
    await records.finish(record.taskId, this.worker, outcome);
    await this.#updates.changed(record.taskId).catch(() => undefined);
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
