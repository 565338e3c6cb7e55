/**
 * Who hears that an MCP task changed: the client that created it in this process (its
 * `notifications/tasks/status` and progress, while it is connected), and the
 * `tasks/result` calls waiting for it to end.
 */
import type { Task } from '@modelcontextprotocol/server';
import type { ProgressNotifier } from '../progress-notifier.ts';
import { taskProgress } from './task-progress.ts';
import type { McpTaskRecord, McpTaskStore } from './task-store.ts';
import { TaskWaiters } from './task-waiters.ts';
import { TERMINAL, toTask, unknownTask } from './task-wire.ts';

/** Where a task created here tells its client about itself, while that client is connected. */
export interface TaskChannel {
  status(task: Task): void;
  progress?: ProgressNotifier;
}

/** The channels of the tasks created here and the waiters of every task. */
export class TaskUpdates {
  /** How to reach the clients that created tasks here, until the task ends. */
  readonly #channels = new Map<string, TaskChannel>();
  readonly #waiters: TaskWaiters;
  readonly #records: () => McpTaskStore;
  readonly #pollIntervalMs: number;

  constructor(records: () => McpTaskStore, pollIntervalMs: number) {
    this.#records = records;
    this.#pollIntervalMs = pollIntervalMs;
    this.#waiters = new TaskWaiters(pollIntervalMs);
  }

  /** Tells `channel` about the task `taskId` from now until it ends. */
  open(taskId: string, channel: TaskChannel): void {
    this.#channels.set(taskId, channel);
  }

  /** Resolves when the task changes here, or after a poll interval; rejects when `signal` aborts. */
  wait(taskId: string, signal: AbortSignal): Promise<void> {
    return this.#waiters.wait(taskId, signal);
  }

  /** Wakes the task's waiters and tells its client its status; returns the task. */
  async changed(taskId: string): Promise<Task> {
    this.#waiters.wake(taskId);
    const record = await this.#records().get(taskId);
    if (!record) throw unknownTask(taskId);
    const task = toTask(record, this.#pollIntervalMs);
    const channel = this.#channels.get(taskId);
    channel?.status(task);
    if (TERMINAL.includes(task.status)) this.#channels.delete(taskId);
    return task;
  }

  /** Stores the task's status message and tells who waits; a failed write is dropped. */
  setStatus(taskId: string, message: string | undefined): Promise<unknown> {
    return this.#records()
      .setStatusMessage(taskId, message)
      .then(() => this.changed(taskId))
      .catch(() => undefined);
  }

  /** `ctx.progress()` of a task's tool: its status message, and progress to its client. */
  progress(record: McpTaskRecord): ProgressNotifier {
    return taskProgress(this.#channels.get(record.taskId)?.progress, (message) =>
      this.setStatus(record.taskId, message),
    );
  }
}
