/**
 * `workflowRuns(store)`: the runs of every workflow in a store, for operators and tools
 * that do not load the workflows' code (the `fino workflows` command, an inbox): list,
 * show, history, signal, cancel and decide.
 */
import type { Decision } from '../../ai/agent/index.ts';
import { WorkflowError } from '../errors.ts';
import { DEFAULT_MAX_VALUE_BYTES, fromCheckpoint, toCheckpoint } from '../json-value.ts';
import type {
  DecisionRef,
  StoredPending,
  WorkflowActor,
  WorkflowListFilter,
  WorkflowStore,
} from '../types.ts';
import { followChain, sendToChain } from './follow-chain.ts';
import { actorOf, checkSignalName } from './lifecycle.ts';
import { type ReadStreamOptions, readStream, type StreamChunk } from './read-stream.ts';
import { type ForkedRun, type ForkOptions, forkRun } from './repair.ts';
import { type QueryOptions, sendQuery, sendUpdate, type UpdateOptions } from './requests.ts';
import { schedules, type WorkflowSchedule } from './schedules.ts';
import { entryView, runView, type WorkflowHistoryEntry, type WorkflowRun } from './view.ts';

/** The runs of every workflow in a store. */
export interface WorkflowRuns {
  /** Runs of any workflow, oldest first. */
  list(filter?: WorkflowListFilter): Promise<WorkflowRun[]>;
  /** One run with its pending decisions and audit trail; `NOT_FOUND` for an unknown id. */
  get(runId: string): Promise<WorkflowRun>;
  /** The run's history: every checkpoint, in recording order. */
  history(runId: string): Promise<WorkflowHistoryEntry[]>;
  /** Undecided pending decisions of unfinished runs (of one run with `runId`), oldest first. */
  pending(filter?: { runId?: string }): Promise<StoredPending[]>;
  /**
   * Sends a signal. A name the run's workflow did not declare when the run started is
   * refused (`UNKNOWN_SIGNAL`); without the workflow's code, payload schemas are not
   * checked here (the workflow's `signal` checks them).
   */
  signal(runId: string, name: string, payload?: unknown): Promise<void>;
  /** Cancels a run (see the workflow's `cancel`). */
  cancel(runId: string, actor?: WorkflowActor): Promise<WorkflowRun>;
  /** Records one decision on a pending decision, by token or `{ runId, decisionId }`. */
  decide(ref: DecisionRef, decision: Decision, actor?: WorkflowActor): Promise<StoredPending>;
  /** Follows the run's stream `name` (see the workflow's `readStream`). */
  readStream(runId: string, name: string, options?: ReadStreamOptions): AsyncIterable<StreamChunk>;
  /** Retries a run that ended in `error` (see the workflow's `retry`); the input is not checked against a schema here. */
  retry(runId: string, actor?: WorkflowActor): Promise<WorkflowRun>;
  /** Forks a run from a step into a new run (see the workflow's `fork`); a new input is not checked against a schema here. */
  fork(runId: string, options: ForkOptions): Promise<ForkedRun>;
  /** Asks the run's query `name` (see the workflow's `query`). */
  query(
    runId: string,
    name: string,
    args?: unknown,
    options?: Omit<QueryOptions, 'store'>,
  ): Promise<unknown>;
  /** Sends the run the update `name` and returns its result (see the workflow's `update`). */
  update(
    runId: string,
    name: string,
    args?: unknown,
    options?: Omit<UpdateOptions, 'store'>,
  ): Promise<unknown>;
  /** The store's schedules, by id (see `schedules()`). */
  schedules(filter?: { workflowId?: string; limit?: number }): Promise<WorkflowSchedule[]>;
}

/**
 * The runs of every workflow in `store`, without their code.
 *
 * @example
 * ```ts
 * import { memoryWorkflowStore, workflowRuns, workflow } from 'fino:workflow';
 *
 * const store = memoryWorkflowStore();
 * await workflow({ id: 'hello', run: () => 'hi' }).start(undefined, { store });
 * const runs = workflowRuns(store);
 * console.log((await runs.list()).map((run) => [run.workflowId, run.status])); // [ [ 'hello', 'running' ] ]
 * await store.close();
 * ```
 */
export function workflowRuns(store: WorkflowStore): WorkflowRuns {
  const found = async (runId: string) => {
    if (typeof runId !== 'string' || runId === '') {
      throw new WorkflowError('INVALID_ARGUMENT', `expected a run id, received ${typeof runId}`);
    }
    const run = await store.get(runId);
    if (!run) throw new WorkflowError('NOT_FOUND', `no workflow run with id "${runId}"`, { runId });
    return run;
  };
  return {
    async list(filter) {
      return (await store.list(filter)).map((run) => runView(run));
    },
    async get(runId) {
      const run = await found(runId);
      const view = runView(run);
      if (run.chainRoot !== undefined) {
        view.chain = { first: run.chainRoot, latest: (await followChain(store, runId)).runId };
      }
      view.pending = await store.pending({ runId });
      view.audit = await store.audit(runId);
      return view;
    },
    async history(runId) {
      await found(runId);
      return (await store.history(runId)).map(entryView);
    },
    pending(filter) {
      return store.pending(filter);
    },
    async signal(runId, name, payload) {
      if (typeof name !== 'string' || name === '' || name.length > 200) {
        throw new WorkflowError(
          'INVALID_ARGUMENT',
          `signal: name: expected a non-empty string of at most 200 characters, received ${typeof name}`,
        );
      }
      const text = toCheckpoint(
        payload,
        `the payload of signal "${name}"`,
        DEFAULT_MAX_VALUE_BYTES,
      );
      const run = await found(runId);
      if (run.signals) checkSignalName(run.workflowId, runId, name, run.signals);
      await sendToChain(store, runId, (live) => store.signal(live, name, text, 1_000));
    },
    async cancel(runId, actor = {}) {
      await found(runId);
      return runView(await sendToChain(store, runId, (live) => store.cancel(live, actor)));
    },
    async retry(runId, actor = {}) {
      await found(runId);
      return runView(await store.retry(runId, actorOf(actor)));
    },
    async fork(runId, options) {
      return forkRun(store, await found(runId), options);
    },
    async decide(ref, decision, actor = {}) {
      if ('resume' in (decision ?? {})) {
        const value = (decision as { resume: unknown }).resume;
        const text = toCheckpoint(value, 'the resume value', DEFAULT_MAX_VALUE_BYTES);
        return store.decide(ref, { resume: fromCheckpoint(text) }, actor);
      }
      return store.decide(ref, decision, actor);
    },
    readStream(runId, name, options = {}) {
      return readStream(store, runId, name, options, () => found(runId));
    },
    query: (runId, name, args, options) => sendQuery(runId, name, args, { ...options, store }),
    update: (runId, name, args, options) => sendUpdate(runId, name, args, { ...options, store }),
    schedules: (filter) => schedules({ store }).list(filter),
  };
}
