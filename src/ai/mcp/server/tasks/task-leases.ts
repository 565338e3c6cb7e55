/**
 * The leases this server holds on MCP tasks — queued or running — renewed together every
 * third of the lease. A renewal that finds the lease gone (the task was cancelled, or
 * another server took it over) tells the task's holder (decision 095, point 4).
 */
import type { Store } from '../../../session/index.ts';

/** Keeps the leases of the tasks this worker holds alive. */
export class TaskLeases {
  readonly #runs: () => Store;
  readonly #worker: string;
  readonly #leaseMs: number;
  /** What to do when a task's lease is lost, by task id. */
  readonly #held = new Map<string, () => void>();
  #timer: NodeJS.Timeout | undefined;

  constructor(runs: () => Store, worker: string, leaseMs: number) {
    this.#runs = runs;
    this.#worker = worker;
    this.#leaseMs = leaseMs;
  }

  /** Renews `taskId`'s lease until the returned function is called; `lost` when it cannot. */
  hold(taskId: string, lost: () => void): () => void {
    this.#held.set(taskId, lost);
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#renewAll(), this.#leaseMs / 3);
      this.#timer.unref();
    }
    return () => {
      if (this.#held.get(taskId) !== lost) return;
      this.#held.delete(taskId);
      if (this.#held.size === 0) {
        clearInterval(this.#timer);
        this.#timer = undefined;
      }
    };
  }

  #renewAll(): void {
    for (const [taskId, lost] of this.#held) {
      this.#runs()
        .renew(taskId, this.#worker, this.#leaseMs)
        .then(
          (held) => held || lost(),
          () => {}, // retried at the next beat
        );
    }
  }
}
