/**
 * Following a continue-as-new chain (decision 230): a run that ended with
 * `ctx.continueAsNew` stands for its chain, so what is sent to it — a signal, a
 * cancellation, a wait for the result — goes to the chain's live run; a stream reader
 * and an update's caller follow it too (decision 254).
 */
import { WorkflowError } from '../errors.ts';
import type { RunRequest, StoredWorkflowRun, WorkflowStore } from '../types.ts';

/** How often an operation is sent on when the run it went to continued as new meanwhile. */
const MAX_HOPS = 20;

/**
 * The run `runId` stands for: itself, or the last run of its chain when it continued as
 * new; `NOT_FOUND` for an unknown id.
 */
export async function followChain(store: WorkflowStore, runId: string): Promise<StoredWorkflowRun> {
  const run = await store.latestInChain(runId);
  if (!run) throw new WorkflowError('NOT_FOUND', `no workflow run with id "${runId}"`, { runId });
  return run;
}

/**
 * Runs `send` on the live run of `runId`'s chain. When that run continues as new between
 * the lookup and the send (the store refuses it: `RUN_FINISHED`, the run now
 * `continued`), sends again to its successor, at most {@link MAX_HOPS} times — so
 * nothing sent during a switch is lost.
 */
export async function sendToChain<T>(
  store: WorkflowStore,
  runId: string,
  send: (liveRunId: string) => Promise<T>,
): Promise<T> {
  for (let hop = 1; ; hop++) {
    const live = await followChain(store, runId);
    try {
      return await send(live.runId);
    } catch (error) {
      if (hop >= MAX_HOPS || (error as WorkflowError).code !== 'RUN_FINISHED') throw error;
      if ((await store.get(live.runId))?.status !== 'continued') throw error;
    }
  }
}

/**
 * Where a reader of stream `name` of the ended run `runId` goes on (decision 254): the
 * run's successor, and how many chunks the run's stream holds (the successor's chunk 0
 * comes after them); `undefined` when the run did not continue as new or closed the stream.
 */
export async function streamSuccessor(
  store: WorkflowStore,
  runId: string,
  name: string,
): Promise<{ runId: string; after: number } | undefined> {
  const run = await store.get(runId);
  if (run?.status !== 'continued' || run.continuedTo === undefined) return undefined;
  const { length, closed } = await store.streamLength(runId, name);
  return closed ? undefined : { runId: run.continuedTo, after: length };
}

/**
 * Request `requestId`, no longer held by run `runId`: the run continued as new with it
 * queued, and it moved on (decision 254) — found in the first successor that holds it.
 */
export async function requestAlongChain(
  store: WorkflowStore,
  runId: string,
  requestId: string,
): Promise<RunRequest | undefined> {
  for (let run = await store.get(runId); run?.continuedTo !== undefined; ) {
    const found = await store.getRequest(run.continuedTo, requestId);
    if (found) return found;
    run = await store.get(run.continuedTo);
  }
  return undefined;
}
