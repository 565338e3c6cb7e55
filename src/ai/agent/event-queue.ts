/**
 * An unbounded log of events, read as an async iterable. The producer never waits for
 * a reader; each reader gets every event from the first. `close()` ends the
 * iteration after the queued events; `fail(error)` ends it by throwing `error`.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #ended = false;
  #error: { error: unknown } | undefined;
  #waiters: (() => void)[] = [];

  push(item: T): void {
    if (this.#ended) return;
    this.#items.push(item);
    this.#notify();
  }

  close(): void {
    this.#ended = true;
    this.#notify();
  }

  fail(error: unknown): void {
    if (this.#ended) return;
    this.#error = { error };
    this.close();
  }

  #notify(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let read = 0;
    for (;;) {
      if (read < this.#items.length) {
        yield this.#items[read++];
      } else if (this.#ended) {
        if (this.#error) throw this.#error.error;
        return;
      } else {
        await new Promise<void>((resolve) => {
          this.#waiters.push(resolve);
        });
      }
    }
  }
}
