/**
 * `workflow()`: a workflow's definition and its lifecycle API — start, signal, cancel,
 * get, list, history, result.
 */

import { setTimeout as delay } from 'node:timers/promises';
import type { Decision } from '../ai/agent/index.ts';
import { canonicalJson } from '../internal/canonical-json.ts';
import { checkDuration } from '../internal/duration.ts';
import { sortableId } from '../internal/sortable-id.ts';
import type { SchemaInput } from '../task/index.ts';
import { type CompiledValidator, compile, type SchemaLike } from '../validate/index.ts';
import type { WorkflowContext } from './context-types.ts';
import { WorkflowError } from './errors.ts';
import { DEFAULT_MAX_VALUE_BYTES, fromCheckpoint, toCheckpoint } from './json-value.ts';
import { workflowRuns } from './runs.ts';
import type {
  DecisionRef,
  StoredPending,
  WorkflowActor,
  WorkflowStatus,
  WorkflowStore,
} from './types.ts';
import { runView, type WorkflowHistoryEntry, type WorkflowRun } from './view.ts';

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
}

/** A workflow: its definition, and the lifecycle API of its runs. */
export interface Workflow<Input = unknown, Output = unknown> {
  readonly id: string;
  readonly options: WorkflowOptions<Input, Output>;
  /** @internal The largest checkpointed value. */
  readonly maxValueBytes: number;
  /** @internal The most checkpoints a run's history may hold. */
  readonly maxHistoryEntries: number;
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
   * Waits for the run to end and returns its output; `RUN_FAILED` when it failed,
   * `CANCELLED` when cancelled, `TIMEOUT` after `timeoutMs`.
   */
  result(runId: string, options: StoreOption & { timeoutMs?: number }): Promise<Output>;
}

/** A workflow of any input and output. */
export type AnyWorkflow = Workflow<any, any>;

const ID_RULE = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/;

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
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      `workflow(options): expected an object, received ${options === null ? 'null' : typeof options}`,
    );
  }
  const { id } = options;
  if (typeof id !== 'string' || !ID_RULE.test(id)) {
    throw new TypeError(
      `workflow: id: expected 1 to 128 letters, digits or . _ : / - (starting with a letter or digit), received ${typeof id === 'string' ? JSON.stringify(id.slice(0, 60)) : typeof id}`,
    );
  }
  if (typeof options.run !== 'function') {
    throw new TypeError(
      `workflow "${id}": run: expected a function, received ${typeof options.run}`,
    );
  }
  const maxValueBytes = options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
  if (!Number.isInteger(maxValueBytes) || maxValueBytes < 1) {
    throw new TypeError(
      `workflow "${id}": maxValueBytes: expected a whole number of bytes ≥ 1, received ${String(maxValueBytes)}`,
    );
  }
  const maxHistoryEntries = options.maxHistoryEntries ?? 10_000;
  if (!Number.isInteger(maxHistoryEntries) || maxHistoryEntries < 1) {
    throw new TypeError(
      `workflow "${id}": maxHistoryEntries: expected a whole number ≥ 1, received ${String(maxHistoryEntries)}`,
    );
  }
  const maxQueuedSignals = options.maxQueuedSignals ?? 1_000;
  if (!Number.isInteger(maxQueuedSignals) || maxQueuedSignals < 1) {
    throw new TypeError(
      `workflow "${id}": maxQueuedSignals: expected a whole number ≥ 1, received ${String(maxQueuedSignals)}`,
    );
  }
  const inputValidator =
    options.input === undefined ? undefined : compile(options.input as SchemaLike);
  const outputValidator =
    options.output === undefined ? undefined : compile(options.output as SchemaLike);
  const signalValidators = new Map<string, CompiledValidator<unknown>>();
  for (const [name, schema] of Object.entries(options.signals ?? {})) {
    signalValidators.set(name, compile(schema) as CompiledValidator<unknown>);
  }
  const signalNames = options.signals ? new Set(signalValidators.keys()) : undefined;

  const check = async (
    validator: CompiledValidator<unknown> | undefined,
    value: unknown,
    code: 'INVALID_INPUT' | 'INVALID_OUTPUT' | 'INVALID_ARGUMENT',
    what: string,
  ) => {
    // Wrapped: an async function returning the value itself would read its `then` (a hostile value's getter).
    if (!validator) return { value };
    const result = await validator.safeParseAsync(value);
    if (result.success) return { value: result.value };
    throw new WorkflowError(code, `${what} does not match its schema: ${result.error.message}`);
  };
  const ownRun = async (store: WorkflowStore, runId: unknown) => {
    if (typeof runId !== 'string' || runId === '') {
      throw new WorkflowError(
        'INVALID_ARGUMENT',
        `expected a run id, received ${typeof runId === 'string' ? 'an empty string' : typeof runId}`,
      );
    }
    const run = await storeOf({ store }).get(runId);
    if (!run || run.workflowId !== id) {
      throw new WorkflowError('NOT_FOUND', `no run "${runId}" of workflow "${id}"`, { runId });
    }
    return run;
  };

  const definition: Workflow<Input, Output> = {
    id,
    options,
    maxValueBytes,
    maxHistoryEntries,
    signalNames,
    checkOutput: (value) =>
      check(outputValidator, value, 'INVALID_OUTPUT', `the output of workflow "${id}"`),

    async start(input, startOptions) {
      const store = storeOf(startOptions);
      const key = startOptions.key;
      if (key !== undefined && (typeof key !== 'string' || key === '' || key.length > 512)) {
        throw new WorkflowError(
          'INVALID_ARGUMENT',
          `start: key: expected a non-empty string of at most 512 characters, received ${typeof key}`,
        );
      }
      const runId = startOptions.runId ?? sortableId('wf_');
      if (typeof runId !== 'string' || runId === '' || runId.length > 200) {
        throw new WorkflowError(
          'INVALID_ARGUMENT',
          `start: runId: expected a non-empty string of at most 200 characters, received ${typeof runId}`,
        );
      }
      const { value: checked } = await check(
        inputValidator,
        input,
        'INVALID_INPUT',
        `the input of workflow "${id}"`,
      );
      const text = toCheckpoint(checked, `the input of workflow "${id}"`, maxValueBytes);
      const { run, created } = await store.create({
        runId,
        workflowId: id,
        ...(key === undefined ? {} : { key }),
        ...(text === undefined ? {} : { input: text }),
        ...(startOptions.parentRunId === undefined
          ? {}
          : { parentRunId: startOptions.parentRunId }),
      });
      if (!created) {
        if (
          startOptions.parentRunId !== undefined &&
          run.parentRunId === startOptions.parentRunId
        ) {
          return { runId: run.runId, created, status: run.status }; // a replayed ctx.child
        }
        if (run.workflowId !== id || (key === undefined ? true : run.key !== key)) {
          throw new WorkflowError(
            'KEY_CONFLICT',
            `a run with id "${runId}" already exists (of workflow "${run.workflowId}")`,
            { runId },
          );
        }
        if (canonicalJson(fromCheckpoint(run.input)) !== canonicalJson(checked)) {
          throw new WorkflowError(
            'KEY_CONFLICT',
            `key "${key}" already started run "${run.runId}" of workflow "${id}" with another input; a key names one run`,
            { runId: run.runId },
          );
        }
      }
      return { runId: run.runId, created, status: run.status };
    },

    async signal(signalOptions) {
      const store = storeOf(signalOptions);
      const { runId, name, payload } = signalOptions;
      if (typeof name !== 'string' || name === '' || name.length > 200) {
        throw new WorkflowError(
          'INVALID_ARGUMENT',
          `signal: name: expected a non-empty string of at most 200 characters, received ${typeof name}`,
        );
      }
      if (signalNames && !signalNames.has(name)) {
        throw new WorkflowError(
          'UNKNOWN_SIGNAL',
          `workflow "${id}" takes no signal "${name}"; it takes ${[...signalNames].map((s) => `"${s}"`).join(', ') || 'none'}`,
          { runId },
        );
      }
      const { value: checked } = await check(
        signalValidators.get(name),
        payload,
        'INVALID_ARGUMENT',
        `the payload of signal "${name}"`,
      );
      const text = toCheckpoint(checked, `the payload of signal "${name}"`, maxValueBytes);
      await ownRun(store, runId);
      await store.signal(runId, name, text, maxQueuedSignals);
    },

    async cancel(runId, cancelOptions) {
      const store = storeOf(cancelOptions);
      await ownRun(store, runId);
      return runView<Output>(await store.cancel(runId, actorOf(cancelOptions)));
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

    async result(runId, resultOptions) {
      const store = storeOf(resultOptions);
      const timeoutMs = checkDuration('result: timeoutMs', resultOptions.timeoutMs, 'nonNegative');
      const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
      for (let wait = 10; ; wait = Math.min(wait * 2, 500)) {
        const run = runView<Output>(await ownRun(store, runId));
        if (run.status === 'done') return run.output as Output;
        if (run.status === 'error') {
          throw new WorkflowError(
            'RUN_FAILED',
            `workflow run "${runId}" failed: ${run.error?.message ?? 'unknown error'}`,
            {
              runId,
              cause: run.error,
            },
          );
        }
        if (run.status === 'cancelled') {
          throw new WorkflowError('CANCELLED', `workflow run "${runId}" was cancelled`, { runId });
        }
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new WorkflowError(
            'TIMEOUT',
            `workflow run "${runId}" did not end within ${timeoutMs} ms (it is ${run.status})`,
            { runId },
          );
        }
        await delay(Math.min(wait, left));
      }
    },
  };
  return definition;
}

/** Who decides, as the audit trail records it. */
const actorOf = (options: WorkflowActor): WorkflowActor => ({
  ...(typeof options?.by === 'string' ? { by: options.by } : {}),
  ...(typeof options?.note === 'string' ? { note: options.note } : {}),
});

/** Records a decision once, with who took it. */
function decide(
  store: WorkflowStore,
  ref: DecisionRef,
  decision: Decision,
  options: WorkflowActor,
): Promise<StoredPending> {
  if (typeof ref !== 'string' && (ref === null || typeof ref !== 'object')) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      'expected a token or { runId, decisionId } naming a pending decision',
    );
  }
  return store.decide(ref, decision, actorOf(options));
}

/** The store of a lifecycle call; `INVALID_ARGUMENT` when none was passed. */
function storeOf(options: Partial<StoreOption> | undefined): WorkflowStore {
  const store = options?.store;
  if (!store || typeof store !== 'object' || typeof store.get !== 'function') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `expected { store } (a workflow store such as sqliteWorkflowStore()), received ${store === null ? 'null' : typeof store}`,
    );
  }
  return store;
}
