/**
 * Storing a run's progress without one write per `ctx.progress()` call: a tool may
 * report hundreds of updates a second, and each would be a round trip (and, on a durable
 * database, a flush) for a value only people read. Decision 053.
 */
import type { StoredProgress } from './types.ts';

/** The shortest time between two progress writes of one run, in milliseconds. */
export const PROGRESS_WRITE_INTERVAL_MS = 1000;

/** What {@link progressWriter} returns: `report` an update; `stop` when the run ends. */
export interface ProgressWriter {
  report(progress: StoredProgress): void;
  /** Drops the update not yet written and writes no more. */
  stop(): void;
}

/**
 * Writes the reported progress through `write` at most once per `intervalMs`, the last
 * update winning: the first update is written at once, later ones when the interval since
 * the previous write has passed. One write is in flight at a time; a failed write is
 * dropped (progress is advisory, the next update is written as usual).
 */
export function progressWriter(
  write: (progress: StoredProgress) => Promise<unknown>,
  intervalMs = PROGRESS_WRITE_INTERVAL_MS,
): ProgressWriter {
  let latest: StoredProgress | undefined;
  let lastWrite = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing = false;
  let stopped = false;

  const flush = () => {
    timer = undefined;
    if (stopped || writing || latest === undefined) return;
    const wait = lastWrite + intervalMs - Date.now();
    if (wait > 0) {
      timer = setTimeout(flush, wait);
      timer.unref?.();
      return;
    }
    const progress = latest;
    latest = undefined;
    writing = true;
    lastWrite = Date.now();
    write(progress)
      .catch(() => {})
      .finally(() => {
        writing = false;
        if (timer === undefined) flush();
      });
  };

  return {
    report(progress) {
      if (stopped) return;
      latest = progress;
      if (timer === undefined) flush();
    },
    stop() {
      stopped = true;
      latest = undefined;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
