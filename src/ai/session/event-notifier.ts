/**
 * The in-process wake-up of run events: a worker that has just committed events of a run
 * tells this process's followers of that run on the same store, which read them at once
 * instead of at their next poll. It carries no events (they are read from the store, so
 * every follower sees the one log), only a call per follower: its memory is one entry
 * per follower, removed when the follower ends.
 */
import type { Store } from './types.ts';

const followers = new WeakMap<Store, Map<string, Set<() => void>>>();

/** Calls every follower of `runId` on `store` in this process. */
export function notifyRunEvents(store: Store, runId: string): void {
  const listeners = followers.get(store)?.get(runId);
  if (listeners) for (const wake of [...listeners]) wake();
}

/** Calls `wake` whenever events of `runId` on `store` were committed here; returns how to stop. */
export function onRunEvents(store: Store, runId: string, wake: () => void): () => void {
  const byRun = followers.get(store) ?? new Map<string, Set<() => void>>();
  followers.set(store, byRun);
  const listeners = byRun.get(runId) ?? new Set<() => void>();
  byRun.set(runId, listeners);
  listeners.add(wake);
  return () => {
    listeners.delete(wake);
    if (listeners.size === 0 && byRun.get(runId) === listeners) byRun.delete(runId);
  };
}
