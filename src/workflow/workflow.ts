/**
 * `workflow()`: a workflow's definition and its lifecycle API — start, signal, cancel,
 * get, list, history, result, query, update. Its options are checked in `workflow-settings.ts`; the
 * longer lifecycle calls live in `lifecycle/`.
 */

import type { SchemaInput } from '../task/index.ts';
import type { SchemaLike } from '../validate/index.ts';
import type { WorkflowContext } from './context/index.ts';
import { WorkflowError } from './errors.ts';
import { fromCheckpoint, toCheckpoint } from './json-value.ts';
import {
  actorOf,
  awaitResult,
  decide,
  type ForkedRun,
  type ForkOptions,
  forkRun,
  type QueryOptions,
  type ReadStreamOptions,
  readStream,
  runOf,
  runView,
  type StreamChunk,
  sendQuery,
  sendSignal,
  sendToChain,
  sendUpdate,
  startRun,
  storeOf,
  type UpdateOptions,
  type WorkflowHistoryEntry,
  type WorkflowRun,
  workflowRuns,
} from './lifecycle/index.ts';
import type {
  ChildCancelPolicy,
  DecisionRef,
  StoredPending,
  WorkflowActor,
  WorkflowStatus,
  WorkflowStore,
} from './types.ts';
import { checkValue, readWorkflowOptions } from './workflow-settings.ts';

/** Definition of a workflow. */
export interface WorkflowOptions<Input, Output> {
  /** Names the workflow in the store: workers find its code by this id. */
  id: string;
  /** Schema of the input, checked by `start` (any `fino:validate` schema). */
  input?: SchemaInput<Input>;
  /** Schema of the output, checked when the run returns (a failure ends the run in `error`). */
  output?: SchemaInput<Output>;
  /**
   * The signals the workflow takes, each with the schema of its payload. When given,
   * `signal` refuses other names (`UNKNOWN_SIGNAL`) and payloads that do not match.
   */
  signals?: Record<string, SchemaLike>;
  /** The largest checkpointed value (step result, input, output, payload), in bytes of JSON (default 2 MiB). */
  maxValueBytes?: number;
  /**
   * The most checkpoints a run's history may hold (default 10 000): every replay reads
   * them all, so a run that loops without end fails with `TOO_LARGE` instead of
   * growing without bound. Split long work into child workflows.
   */
  maxHistoryEntries?: number;
  /** The most signals a run may hold unconsumed (default 1 000). */
  maxQueuedSignals?: number;
  /**
   * How many ended runs of a `ctx.continueAsNew` chain keep their history (default 10):
   * an older run keeps its row (ids, status, links, times) but not its history, signals
   * or input, so a chain that runs for months keeps a flat store size.
   */
  keepContinuedHistories?: number;
  /** The code. It may run many times: only what goes through `ctx` is durable. */
  run(ctx: WorkflowContext, input: Input): Promise<Output> | Output;
}

/** The store a lifecycle method works on. */
export interface StoreOption {
  store: WorkflowStore;
}

/** Options of `start`. */
export interface StartOptions extends StoreOption {
  /** An idempotency key: starting again with the same key returns the first run (`created: false`). */
  key?: string;
  /** The run's id (default `wf_` and 32 hex digits that sort in the order runs were started). */
  runId?: string;
  /** @internal The parent run, for a child started by `ctx.child`. */
  parentRunId?: string;
  /** @internal For a child: what it does when its parent is cancelled. */
  onParentCancel?: ChildCancelPolicy;
}

/** A workflow: its definition, and the lifecycle API of its runs. */
export interface Workflow<Input = unknown, Output = unknown> {
  readonly id: string;
  readonly options: WorkflowOptions<Input, Output>;
  /** @internal The largest checkpointed value. */
  readonly maxValueBytes: number;
  /** @internal The most checkpoints a run's history may hold. */
  readonly maxHistoryEntries: number;
  /** @internal How many ended runs of a continue-as-new chain keep their history. */
  readonly keepContinuedHistories: number;
  /** @internal Checks an input against the input schema (for `ctx.continueAsNew`). */
  checkInput(value: unknown, what: string): Promise<{ value: unknown }>;
  /** @internal The declared signal names, if declared. */
  readonly signalNames: ReadonlySet<string> | undefined;
  /** @internal Checks a returned value against the output schema (wrapped, so a hostile value is never awaited). */
  checkOutput(value: unknown): Promise<{ value: unknown }>;
  /** Creates a run (a worker drives it); with a `key` already used, returns that run. */
  start(
    input: Input,
    options: StartOptions,
  ): Promise<{ runId: string; created: boolean; status: WorkflowStatus }>;
  /** Sends a signal to a run: queued until the run waits for it, then consumed once. */
  signal(options: StoreOption & { runId: string; name: string; payload?: unknown }): Promise<void>;
  /** Cancels a run: it unwinds at its next wait or step, running its `finally` blocks. */
  cancel(runId: string, options: StoreOption & WorkflowActor): Promise<WorkflowRun<Output>>;
  /** The run as it stands, with its pending decisions and audit trail; `NOT_FOUND` for an unknown id. */
  get(runId: string, options: StoreOption): Promise<WorkflowRun<Output>>;
  /** Approves a pending tool call, by its token or `{ runId, decisionId }`; once (`ALREADY_DECIDED` after). */
  approve(ref: DecisionRef, options: StoreOption & WorkflowActor): Promise<StoredPending>;
  /** Rejects a pending tool call or suspension: the call's result is an error naming `reason`. */
  reject(
    ref: DecisionRef,
    reason: string,
    options: StoreOption & WorkflowActor,
  ): Promise<StoredPending>;
  /** Answers a suspended tool call: `value` reaches the tool as `ctx.resumeValue`. */
  resume(
    ref: DecisionRef,
    value: unknown,
    options: StoreOption & WorkflowActor,
  ): Promise<StoredPending>;
  /** This workflow's runs, oldest first. */
  list(
    options: StoreOption & { status?: WorkflowStatus; limit?: number },
  ): Promise<WorkflowRun<Output>[]>;
  /** The events the run emitted (`ctx.emit`) so far, in order. */
  events(
    runId: string,
    options: StoreOption,
  ): Promise<Array<{ name: string; value: unknown; at: string }>>;
  /** The run's history: every checkpoint, in recording order. */
  history(runId: string, options: StoreOption): Promise<WorkflowHistoryEntry[]>;
  /**
   * Follows the run's stream `name` (`ctx.writeStream`) from offset `from` (default 0):
   * each chunk with its offset, live until the stream is closed or the run ends. Resume
   * after a reconnect from the last offset seen plus one. `NOT_FOUND` for a run of another
   * workflow, `INVALID_ARGUMENT` for an offset that is not a safe integer ≥ 0.
   *
   * @example
   * ```ts
   * import { memoryWorkflowStore, worker, workflow } from 'fino:workflow';
   *
   * const count = workflow({
   *   id: 'count',
   *   async run(ctx) {
   *     for (const n of [1, 2, 3]) await ctx.writeStream('progress', { n });
   *     await ctx.closeStream('progress');
   *   },
   * });
   * const store = memoryWorkflowStore();
   * const { runId } = await count.start(undefined, { store });
   * await worker({ store, workflows: [count] }).drain();
   * for await (const chunk of count.readStream(runId, 'progress', { store, from: 1 })) {
   *   console.log(chunk); // { offset: 1, value: { n: 2 } }, then { offset: 2, value: { n: 3 } }
   * }
   * await store.close();
   * ```
   */
  readStream(
    runId: string,
    name: string,
    options: StoreOption & ReadStreamOptions,
  ): AsyncIterable<StreamChunk>;
  /**
   * Runs a run that ended in `error` again from where it stopped: its completed
   * checkpoints are kept, the failed ones run again (a worker drives it, under the code
   * it has). Audited (`retry`). `RUN_NOT_FAILED` for a run not in `error`.
   */
  retry(runId: string, options: StoreOption & WorkflowActor): Promise<WorkflowRun<Output>>;
  /**
   * Forks a run (of any status) into a new run holding a copy of its history before
   * `fromStep`: those steps are not executed again, `fromStep` and what follows run under
   * the current code. Audited (`fork`, on both runs). `INVALID_ARGUMENT` for a step the
   * history does not hold.
   */
  fork(runId: string, options: StoreOption & ForkOptions & { input?: Input }): Promise<ForkedRun>;
  /**
   * Waits for the run to end and returns its output; `RUN_FAILED` when it failed,
   * `CANCELLED` when cancelled, `TIMEOUT` after `timeoutMs`.
   */
  result(runId: string, options: StoreOption & { timeoutMs?: number }): Promise<Output>;
  /**
   * Asks the run's query `name` (`ctx.onQuery`): answered by a worker from the run's
   * state while the run waits, without changing it. `UNKNOWN_QUERY`, `QUERY_FAILED`,
   * `RUN_FINISHED`, `TIMEOUT` after `timeoutMs` (default 30 000).
   */
  query<Result = unknown>(
    runId: string,
    name: string,
    args: unknown,
    options: QueryOptions,
  ): Promise<Result>;
  /**
   * Sends the run the update `name` (`ctx.onUpdate`) and returns its handler's result
   * once a worker has applied it — once per `updateId`, however often it is sent.
   * `UPDATE_REJECTED` (its validator refused it; nothing recorded), `UNKNOWN_UPDATE`,
   * `UPDATE_FAILED`, `UPDATE_QUEUE_FULL`, `RUN_FINISHED`, `TIMEOUT`.
   */
  update<Result = unknown>(
    runId: string,
    name: string,
    args: unknown,
    options: UpdateOptions,
  ): Promise<Result>;
}

/** A workflow of any input and output. */
export type AnyWorkflow = Workflow<any, any>;

/**
 * Defines a durable workflow: code whose steps, waits and calls are checkpointed, so a
 * run survives restarts and may wait for days. See docs/workflow.md.
 *
 * @example
 * ```ts
 * import { memoryWorkflowStore, worker, workflow } from 'fino:workflow';
 * import { v } from 'fino:validate';
 *
 * const greet = workflow({
 *   id: 'greet',
 *   input: v.object({ name: v.string() }),
 *   async run(ctx, { name }) {
 *     const greeting = await ctx.step('compose', () => `Hello, ${name}!`);
 *     return { greeting };
 *   },
 * });
 * const store = memoryWorkflowStore();
 * const { runId } = await greet.start({ name: 'Ana' }, { store });
 * await worker({ store, workflows: [greet] }).drain();
 * console.log(await greet.result(runId, { store })); // { greeting: 'Hello, Ana!' }
 * await store.close();
 * ```
 */
export function workflow<Input = unknown, Output = unknown>(
  options: WorkflowOptions<Input, Output>,
): Workflow<Input, Output> {
  const settings = readWorkflowOptions(options as WorkflowOptions<unknown, unknown>);
  const { id, maxValueBytes, signalNames } = settings;
  const ownRun = (store: WorkflowStore, runId: unknown) => runOf(store, id, runId);
  const definition: Workflow<Input, Output> = {
    id,
    options,
    maxValueBytes,
    maxHistoryEntries: settings.maxHistoryEntries,
    keepContinuedHistories: settings.keepContinuedHistories,
    checkInput: (value, what) => checkValue(settings.input, value, 'INVALID_INPUT', what),
    signalNames,
    checkOutput: (value) =>
      checkValue(settings.output, value, 'INVALID_OUTPUT', `the output of workflow "${id}"`),
    start: (input, startOptions) => startRun(settings, input, startOptions),
    signal: (signalOptions) => sendSignal(settings, signalOptions),

    async cancel(runId, cancelOptions) {
      const store = storeOf(cancelOptions);
      await ownRun(store, runId);
      const actor = actorOf(cancelOptions);
      return runView<Output>(await sendToChain(store, runId, (live) => store.cancel(live, actor)));
    },

    async get(runId, getOptions) {
      const store = storeOf(getOptions);
      await ownRun(store, runId);
      return (await workflowRuns(store).get(runId)) as WorkflowRun<Output>;
    },

    async approve(ref, decideOptions) {
      return decide(storeOf(decideOptions), ref, { approve: true }, decideOptions);
    },

    async reject(ref, reason, decideOptions) {
      if (typeof reason !== 'string' || reason === '') {
        throw new WorkflowError(
          'INVALID_ARGUMENT',
          `reject: reason: expected a non-empty string, received ${typeof reason}`,
        );
      }
      return decide(storeOf(decideOptions), ref, { reject: reason }, decideOptions);
    },

    async resume(ref, value, decideOptions) {
      const text = toCheckpoint(value, 'the resume value', maxValueBytes);
      return decide(storeOf(decideOptions), ref, { resume: fromCheckpoint(text) }, decideOptions);
    },

    async list(listOptions) {
      const store = storeOf(listOptions);
      const runs = await store.list({
        workflowId: id,
        ...(listOptions.status === undefined ? {} : { status: listOptions.status }),
        ...(listOptions.limit === undefined ? {} : { limit: listOptions.limit }),
      });
      return runs.map((run) => runView<Output>(run));
    },

    async history(runId, historyOptions) {
      const store = storeOf(historyOptions);
      await ownRun(store, runId);
      return workflowRuns(store).history(runId);
    },

    async events(runId, eventsOptions) {
      const store = storeOf(eventsOptions);
      await ownRun(store, runId);
      return (await store.history(runId))
        .filter((entry) => entry.kind === 'emit')
        .map((entry) => ({
          name: entry.name!,
          value: fromCheckpoint(entry.value),
          at: new Date(entry.startedAt).toISOString(),
        }));
    },

    readStream(runId, name, streamOptions) {
      const store = storeOf(streamOptions);
      return readStream(store, runId, name, streamOptions, () => ownRun(store, runId));
    },

    async retry(runId, retryOptions) {
      const store = storeOf(retryOptions);
      await ownRun(store, runId);
      return runView<Output>(await store.retry(runId, actorOf(retryOptions)));
    },

    async fork(runId, forkOptions) {
      const store = storeOf(forkOptions);
      return forkRun(store, await ownRun(store, runId), forkOptions, settings);
    },

    result: (runId, resultOptions) => awaitResult<Output>(id, runId, resultOptions),
    query: (runId, name, args, options) =>
      sendQuery(runId, name, args, options, id) as Promise<never>,
    update: (runId, name, args, options) =>
      sendUpdate(runId, name, args, options, id) as Promise<never>,
  };
  return definition;
}
