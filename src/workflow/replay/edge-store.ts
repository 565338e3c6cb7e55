/**
 * The store a replay runs against (decision 237): it holds nothing and writes nothing.
 * What an execution asks it is answered as "nothing happened after the history ends" — no
 * signal queued, no decision taken, every child still running — and every write is
 * accepted into nothing, so code that reaches the end of its history parks there.
 */
import { WorkflowError } from '../errors.ts';
import type { LeaseState, StoredWorkflowRun, WorkflowStore } from '../types.ts';

const HELD: LeaseState = { held: true, cancelRequested: false };

/** The answers of the methods an execution calls; nothing is kept. */
/** A run as the replay sees every run it asks about: still running. */
const stillRunning = async (runId: string): Promise<StoredWorkflowRun> => ({
  runId,
  workflowId: '',
  status: 'running',
  cancelRequested: false,
  createdAt: 0,
  updatedAt: 0,
});

const answers: Partial<Record<keyof WorkflowStore, (...args: never[]) => Promise<unknown>>> = {
  record: async () => HELD,
  renew: async () => HELD,
  suspend: async () => HELD,
  consumeSignal: async () => ({ ...HELD, consumed: false }),
  decisions: async () => new Map(),
  get: stillRunning,
  latestInChain: stillRunning,
};

/**
 * A store of no data for one replay. A method an execution is not known to call refuses
 * with `STORE_UNAVAILABLE` naming it, which ends the replay with that error.
 */
export function edgeStore(): WorkflowStore {
  return new Proxy({} as WorkflowStore, {
    get(_, method) {
      if (typeof method !== 'string' || method === 'then') return undefined; // not a promise
      return (
        answers[method as keyof WorkflowStore] ??
        (async () => {
          throw new WorkflowError(
            'STORE_UNAVAILABLE',
            `replayHistory cannot answer the store's ${method}(): a replay reads only its history (report this to fino)`,
          );
        })
      );
    },
  });
}
