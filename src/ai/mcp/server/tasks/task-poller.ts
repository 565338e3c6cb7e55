/**
 * The poller of a task server: every poll interval it claims the tasks no server holds
 * that can go on — decided elsewhere (`ready`), or whose server died (lease expired) — and
 * now and then deletes expired tasks (decision 096, points 3 and 4).
 */
import type { StoredRun } from '../../../session/index.ts';
import type { McpTaskStore } from './task-store.ts';

/** The poller drops expired tasks every this many rounds. */
const SWEEP_EVERY_TICKS = 60;

/** What the poller needs from its server. */
export interface TaskPollerSetting {
  records(): McpTaskStore;
  worker: string;
  leaseMs: number;
  pollIntervalMs: number;
  /** Whether the task runs in this process already (then it is not claimed). */
  isHere(taskId: string): boolean;
  /** Goes on with a task this worker has just claimed. */
  resume(run: StoredRun, interrupted: boolean): Promise<void>;
}

/** Claims orphaned and decided tasks, and sweeps expired ones, while active. */
export class TaskPoller {
  readonly #setting: TaskPollerSetting;
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;
  #ticks = 0;

  constructor(setting: TaskPollerSetting) {
    this.#setting = setting;
  }

  /** Starts polling (once; later calls do nothing). */
  activate(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.#tick(), this.#setting.pollIntervalMs);
    this.#timer.unref();
    void this.#tick();
  }

  /** Stops polling. */
  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #tick(): Promise<void> {
    if (this.#ticking) return;
    this.#ticking = true;
    const { records: recordsOf, worker, leaseMs, isHere, resume } = this.#setting;
    try {
      const records = recordsOf();
      for (const { taskId, interrupted } of await records.orphans()) {
        if (isHere(taskId)) continue;
        const run = await records.runs.claim(taskId, worker, leaseMs);
        if (run) void resume(run, interrupted).catch(() => undefined);
      }
      if (this.#ticks++ % SWEEP_EVERY_TICKS === 0) await records.sweep();
    } catch {
      // The store is unreachable or a row unreadable: the next tick tries again.
    } finally {
      this.#ticking = false;
    }
  }
}
