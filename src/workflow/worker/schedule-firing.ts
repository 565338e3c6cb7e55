/**
 * A worker's part in schedules (decision 221): each look for due work also starts the
 * due ticks of the schedules of the workflows it serves — a bounded batch per store
 * call, so its cost per poll stays bounded with any number of schedules — and the next
 * due schedule shortens its wait, as the next timer does.
 */
import type { WorkflowStore } from '../types.ts';

/** The most store calls one look makes (each fires at most a bounded batch); the rest waits for the next look. */
export const FIRINGS_PER_LOOK = 4;

/** Schedules that cannot be read, per store: reported once, then skipped. */
const unreadable = new WeakMap<WorkflowStore, Set<string>>();

/**
 * Fires due schedules of `workflowIds`: whether it started a run or left ticks due (so
 * the caller looks again at once). A schedule that cannot be read is reported to
 * `onError` once and skipped.
 */
export async function fireDue(
  store: WorkflowStore,
  workflowIds: readonly string[],
  onError: (error: unknown, id: string) => void,
): Promise<boolean> {
  const reported = unreadable.get(store) ?? new Set<string>();
  unreadable.set(store, reported);
  let started = 0;
  for (let look = 0; look < FIRINGS_PER_LOOK; look++) {
    const fired = await store.fireSchedules(workflowIds, Date.now());
    started += fired.started;
    for (const id of fired.corrupt.filter((id) => !reported.has(id))) {
      reported.add(id);
      onError(new Error(`schedule "${id}" cannot be read; it is skipped`), `schedule:${id}`);
    }
    if (!fired.more) return started > 0;
  }
  return true;
}

/**
 * Fires due schedules, then says when the worker should look next: now when it started
 * runs or left ticks due, else the earlier of the next run's wake and the next
 * schedule's due time.
 */
export async function fireAndNextDue(
  store: WorkflowStore,
  workflowIds: readonly string[],
  onError: (error: unknown, id: string) => void,
): Promise<number | undefined> {
  if (await fireDue(store, workflowIds, onError)) return Date.now();
  const [run, schedule] = await Promise.all([
    store.nextWake(workflowIds),
    store.nextScheduleDue(workflowIds),
  ]);
  if (run === undefined) return schedule;
  return schedule === undefined ? run : Math.min(run, schedule);
}
