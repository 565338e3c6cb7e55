/**
 * One home for "store the latest value, but not on every change": a tool's progress may
 * be reported hundreds of times a second, and each report would otherwise be a database
 * round trip for a value only people read. The session's stored run progress and an MCP
 * task's status message both write through it (decision 053; decision 115).
 */

/** What {@link throttledWriter} returns. */
export interface ThrottledWriter<T> {
  /** Holds `value` as the latest; it is written when the interval allows, the last one winning. */
  report(value: T): void;
  /** Writes the value held back now, and resolves once every write has settled. */
  flush(): Promise<void>;
  /** Drops the value held back and writes no more (a write in flight still settles). */
  stop(): void;
}

/**
 * Writes reported values through `write` at most once per `intervalMs`: the first value at
 * once, later ones when the interval since the previous write has passed, the latest
 * winning. One write is in flight at a time; a failed write is dropped (the next value is
 * written as usual) — these values are advisory.
 *
 * @example
 * ```ts
 * import { throttledWriter } from './throttled-writer.ts';
 *
 * const writer = throttledWriter(async (percent: number) => console.log(`stored ${percent}%`), 1000);
 * for (let percent = 1; percent <= 100; percent++) writer.report(percent);
 * await writer.flush(); // stored 1%, then stored 100%
 * ```
 */
export function throttledWriter<T>(
  write: (value: T) => Promise<unknown>,
  intervalMs: number,
): ThrottledWriter<T> {
  let latest: { value: T } | undefined;
  let lastWrite = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> | undefined;
  let stopped = false;

  const start = (held: { value: T }) => {
    latest = undefined;
    lastWrite = Date.now();
    writing = write(held.value)
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        writing = undefined;
        if (timer === undefined) pump();
      });
  };
  const pump = () => {
    timer = undefined;
    if (stopped || writing !== undefined || latest === undefined) return;
    const wait = lastWrite + intervalMs - Date.now();
    if (wait > 0) {
      timer = setTimeout(pump, wait);
      timer.unref?.();
      return;
    }
    start(latest);
  };
  const cancelTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };

  return {
    report(value) {
      if (stopped) return;
      latest = { value };
      if (timer === undefined) pump();
    },
    async flush() {
      for (;;) {
        cancelTimer();
        if (writing !== undefined) {
          await writing;
          continue;
        }
        if (stopped || latest === undefined) return;
        start(latest);
      }
    },
    stop() {
      stopped = true;
      latest = undefined;
      cancelTimer();
    },
  };
}
