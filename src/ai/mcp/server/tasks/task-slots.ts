/**
 * How many MCP tasks run at once: at most `maxRunning` in this server and
 * `maxRunningPerOwner` for one owner; the rest wait in a queue of at most `maxQueued`,
 * started in order as slots free up — skipping owners that are at their own limit, so
 * one busy client cannot hold back the others. Decision 116.
 */

/** The running-task limits of one server. */
export interface TaskSlotLimits {
  maxRunning: number;
  maxRunningPerOwner: number;
  maxQueued: number;
}

/** A task waiting for a slot; `withdraw()` takes it out of the queue (it was cancelled). */
export interface QueuedTask {
  withdraw(): void;
}

interface Waiting {
  owner: string;
  start(): void;
}

/** The running and queued tasks of one server. */
export class TaskSlots {
  readonly limits: TaskSlotLimits;
  #running = 0;
  readonly #runningBy = new Map<string, number>();
  readonly #queue: Waiting[] = [];

  constructor(limits: TaskSlotLimits) {
    this.limits = limits;
  }

  /** Tasks waiting for a slot now. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Whether the queue is full: a new task could not wait for a slot. */
  get full(): boolean {
    return this.#queue.length >= this.limits.maxQueued;
  }

  /**
   * Calls `start` now when `owner` may run one more task, else queues it; `undefined`
   * when it started. A started task holds its slot until {@link release}.
   */
  acquire(owner: string, start: () => void): QueuedTask | undefined {
    if (this.#queue.length === 0 && this.#hasRoom(owner)) {
      this.#take(owner);
      start();
      return undefined;
    }
    const waiting: Waiting = { owner, start };
    this.#queue.push(waiting);
    this.#startWaiting(); // the queue may hold only owners at their limit
    return {
      withdraw: () => {
        const at = this.#queue.indexOf(waiting);
        if (at >= 0) this.#queue.splice(at, 1);
      },
    };
  }

  /**
   * Waits for a running slot for `owner`: `true` once it holds one, `false` when `signal`
   * aborts first. A task that has to wait says so: `mark(queuedMessage)` when it is
   * queued, `mark(undefined)` when it starts after waiting (after the first write lands).
   */
  waitFor(
    owner: string,
    signal: AbortSignal,
    queuedMessage: string,
    mark: (message: string | undefined) => Promise<unknown>,
  ): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      let queued: QueuedTask | undefined;
      let marked: Promise<unknown> = Promise.resolve();
      const aborted = () => {
        queued?.withdraw();
        resolve(false);
      };
      queued = this.acquire(owner, () => {
        signal.removeEventListener('abort', aborted);
        if (!queued) {
          resolve(true);
          return;
        }
        // Started after waiting: the queued message goes (after its own write lands).
        marked.then(() => mark(undefined)).finally(() => resolve(true));
      });
      if (!queued) return;
      signal.addEventListener('abort', aborted, { once: true });
      marked = mark(queuedMessage);
    });
  }

  /** Frees `owner`'s slot and starts the next queued tasks that may run. */
  release(owner: string): void {
    this.#running--;
    const mine = (this.#runningBy.get(owner) ?? 1) - 1;
    if (mine === 0) this.#runningBy.delete(owner);
    else this.#runningBy.set(owner, mine);
    this.#startWaiting();
  }

  #hasRoom(owner: string): boolean {
    return (
      this.#running < this.limits.maxRunning &&
      (this.#runningBy.get(owner) ?? 0) < this.limits.maxRunningPerOwner
    );
  }

  #take(owner: string): void {
    this.#running++;
    this.#runningBy.set(owner, (this.#runningBy.get(owner) ?? 0) + 1);
  }

  #startWaiting(): void {
    for (let i = 0; i < this.#queue.length && this.#running < this.limits.maxRunning; ) {
      const waiting = this.#queue[i];
      if (!this.#hasRoom(waiting.owner)) {
        i++;
        continue;
      }
      this.#queue.splice(i, 1);
      this.#take(waiting.owner);
      waiting.start();
    }
  }
}
