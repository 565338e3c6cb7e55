/**
 * Who waits for a task to change (`tasks/result` blocks until the task ends): woken when
 * it changes in this process, or after a poll interval, since it may change elsewhere.
 */
export class TaskWaiters {
  readonly #waiting = new Map<string, Set<() => void>>();
  readonly #pollIntervalMs: number;

  constructor(pollIntervalMs: number) {
    this.#pollIntervalMs = pollIntervalMs;
  }

  /** Wakes everyone waiting for `taskId`. */
  wake(taskId: string): void {
    for (const wake of this.#waiting.get(taskId) ?? []) wake();
  }

  /** Resolves when `taskId` changes here, or after a poll interval; rejects when `signal` aborts. */
  wait(taskId: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const waiters = this.#waiting.get(taskId) ?? new Set();
      this.#waiting.set(taskId, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0) this.#waiting.delete(taskId);
        signal.removeEventListener('abort', aborted);
        resolve();
      };
      const aborted = () => {
        done();
        reject(signal.reason);
      };
      const timer = setTimeout(done, this.#pollIntervalMs);
      waiters.add(done);
      signal.addEventListener('abort', aborted, { once: true });
    });
  }
}
