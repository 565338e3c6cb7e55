/**
 * A worker's part in schedules (decision 221): each look for due work first starts the
 * due ticks of the schedules of the workflows it serves — a bounded batch per store
 * call, so its cost per poll stays bounded with any number of schedules — and the next
 * due schedule shortens its wait.
 */
import type { WorkflowStore } from '../types.ts';

/** The most store calls one look makes (each fires at most a bounded batch); the rest waits for the next look. */
const FIRINGS_PER_LOOK = 4;

/**
 * Fires due schedules of `workflowIds`; how many runs it started, and whether ticks are
 * left due. A schedule that cannot be read is reported to `onError` once and skipped.
 */
export async function fireDueSchedules(
  store: WorkflowStore,
  workflowIds: readonly string[],
  reported: Set<string>,
  onError: (error: unknown, id: string) => void,
): Promise<{ started: number; more: boolean }> {
  let started = 0;
  for (let look = 0; look < FIRINGS_PER_LOOK; look++) {
    const fired = await store.fireSchedules(workflowIds, Date.now());
    started += fired.started;
    for (const id of fired.corrupt.filter((id) => !reported.has(id))) {
      reported.add(id);
      onError(new Error(`schedule "${id}" cannot be read; it is skipped`), `schedule:${id}`);
    }
    if (!fired.more) return { started, more: false };
  }
  return { started, more: true };
}

/** The earlier of the next run's wake and the next schedule's due time. */
export async function nextDue(
  store: WorkflowStore,
  workflowIds: readonly string[],
): Promise<number | undefined> {
  const [run, schedule] = await Promise.all([
    store.nextWake(workflowIds),
    store.nextScheduleDue(workflowIds),
  ]);
  if (run === undefined) return schedule;
  return schedule === undefined ? run : Math.min(run, schedule);
}
