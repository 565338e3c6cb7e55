/**
 * What a worker holds in its store while it works: its wake-up subscription (decision
 * 238: the store tells it when a run of its workflows may have fallen due) and, with an
 * `identity`, the identity itself (decision 239), taken when it starts or drains and
 * given back when it stops.
 */
import type { WorkflowStore } from '../types.ts';
import { holdIdentity } from './identity.ts';

/** A worker's presence in its store. */
export interface Presence {
  /** Takes the identity (`IDENTITY_IN_USE` when a live process holds it) and listens for wake-ups. */
  enter(): Promise<void>;
  /** Stops listening and gives the identity back. */
  leave(): Promise<void>;
  /** Runs `work` holding the identity: the one already held, else taken for `work` alone. */
  during<T>(work: () => Promise<T>): Promise<T>;
}

/** The presence of the worker `owner` serving `workflowIds`; `stop` is called when its identity was taken by another process. */
export function workerPresence(
  store: WorkflowStore,
  workflowIds: readonly string[],
  identity: string | undefined,
  owner: string,
  hooks: {
    wake(): void;
    onError(error: unknown, runId: string): void;
    stop(): Promise<void>;
  },
): Presence {
  let held: { release(): Promise<void> } | undefined;
  let wakes: { close(): Promise<void> } | undefined;
  const take = async () =>
    identity === undefined
      ? undefined
      : holdIdentity(store, identity, owner, (error) => {
          hooks.onError(error, '(identity)');
          void hooks.stop();
        });
  return {
    async enter() {
      held = await take();
      wakes = store.wakeups(workflowIds, hooks.wake);
    },
    async leave() {
      await wakes?.close();
      await held?.release();
      wakes = held = undefined;
    },
    async during(work) {
      if (held) return work();
      const own = await take();
      try {
        return await work();
      } finally {
        await own?.release();
      }
    },
  };
}
