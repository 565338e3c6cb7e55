/**
 * The workflow context and the replay engine behind it (decision 137).
 *
 * A run's code is executed again from the start every time a worker picks the run up.
 * Every `ctx` operation has an id, unique in the run; its first completion is written to
 * the run's history before its result is returned, and on every later execution the
 * operation returns that saved result without running again. So the code is replayed up
 * to where the history ends, then continues live.
 *
 * The replay guard. History entries are matched by id and kind, so steps that complete
 * in a different order under `Promise.all` replay correctly. Code that changed under a
 * running run is caught two ways, both failing the run with `NONDETERMINISM` naming both
 * operations: an id met with another kind than the history holds; and an operation the
 * history does not hold that is about to run live while an entry of the history has not
 * been met once replay has settled (every replayed result resolves in microtasks, so
 * after one macrotask turn the code has reached everything the history can replay).
 *
 * Waiting never unwinds the code: an operation that must wait (a timer not yet due, a
 * signal not yet sent, a decision not yet made) returns a promise that never settles,
 * and once no operation is running live the execution parks the run and is abandoned —
 * so a `finally` block runs only when the run ends or is cancelled.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay, setImmediate as nextTurn } from 'node:timers/promises';
import {
  type AgentInput,
  type AgentRunOptions,
  argsHash,
  type Decision,
  type Decisions,
  type OtelSpan,
  type PendingCall,
  type RunResult,
  type RunState,
} from '../ai/agent/index.ts';
import { controlFlowName, errorMessage } from '../internal/thrown-value.ts';
import { hashToken, newToken } from '../internal/tokens.ts';
import type { ToolResultObject } from '../task/index.ts';
import type {
  AgentOutcome,
  Callable,
  CallOptions,
  DurableAgent,
  PendingDecision,
  StepContext,
  StepOptions,
  WaitForSignalOptions,
  WorkflowContext,
} from './context-types.ts';
import { isNonRetryable, WorkflowError } from './errors.ts';
import { fromCheckpoint, toCheckpoint } from './json-value.ts';
import { retryDelay, retryPolicy } from './retry.ts';
import { endSpan } from './telemetry.ts';
import type {
  EntryKind,
  HistoryEntry,
  StoredError,
  StoredWorkflowRun,
  WaitingOn,
  WorkflowStore,
} from './types.ts';
import type { Workflow } from './workflow.ts';

/** How one execution of a run ends. */
export type ExecutionEnd =
  | { kind: 'returned'; value: unknown }
  | { kind: 'threw'; error: unknown }
  | { kind: 'park'; waiting: WaitingOn }
  | { kind: 'fatal'; error: WorkflowError }
  | { kind: 'lost' }
  | { kind: 'stopped' };

/** What an execution needs besides the run and its history. */
export interface ExecutionDeps {
  store: WorkflowStore;
  owner: string;
  leaseMs: number;
  maxValueBytes: number;
  /** The most checkpoints the run's history may hold. */
  maxHistoryEntries: number;
  /** Declared signal names, when the workflow declares them. */
  signals?: ReadonlySet<string>;
  /** Hands out each new pending decision with its token, once. */
  onPending?(pending: PendingDecision): void;
  /** Starts a span for a live operation, under the execution's span; absent when tracing is off. */
  span?(name: string, attributes: Record<string, string | number | boolean>): OtelSpan;
}

const never = <T>(): Promise<T> => new Promise<T>(() => {});
const MAX_ID_LENGTH = 200;
/** Ids fino makes up for `now`, `random`, `uuid`, `version` start with "$"; step ids may not. */
const AUTO = '$';

/** The error a saved failure is replayed as. */
export const replayedError = (error: StoredError): WorkflowError =>
  new WorkflowError(
    (error.code as WorkflowError['code'] | undefined) ?? 'STEP_FAILED',
    error.message,
  );

/** The cancellation a waiting operation throws in a cancelled run. */
const cancelled = (runId: string) =>
  new WorkflowError('CANCELLED', `workflow run "${runId}" was cancelled`, { runId });

/** One execution of a run's code against its history. */
export class Execution implements WorkflowContext {
  readonly runId: string;
  readonly workflowId: string;
  readonly signal: AbortSignal;
  readonly #abort = new AbortController();
  readonly #deps: ExecutionDeps;
  readonly #history = new Map<string, HistoryEntry>();
  readonly #unmet = new Set<string>();
  readonly #used = new Map<string, EntryKind>();
  readonly #counters = new Map<string, number>();
  readonly #blocked = new Map<
    string,
    { timerDueAt?: number; signal?: string; decisions?: string[]; child?: string }
  >();
  #nextSeq: number;
  #live = 0;
  #ended = false;
  #cancelling: boolean;
  /** Whether the cancellation was already thrown at a step (later steps run: they are cleanup). */
  #cancelDelivered = false;
  #stopping = false;
  #end!: (end: ExecutionEnd) => void;
  readonly #ending: Promise<ExecutionEnd>;

  constructor(run: StoredWorkflowRun, history: readonly HistoryEntry[], deps: ExecutionDeps) {
    this.runId = run.runId;
    this.workflowId = run.workflowId;
    this.signal = this.#abort.signal;
    this.#deps = deps;
    this.#cancelling = run.cancelRequested;
    for (const entry of history) {
      this.#history.set(entry.id, entry);
      this.#unmet.add(entry.id);
    }
    this.#nextSeq = Math.max(0, ...history.map((entry) => entry.seq)) + 1;
    this.#ending = new Promise((resolve) => {
      this.#end = resolve;
    });
  }

  /** Whether this execution knows the run is cancelled. */
  get cancelling(): boolean {
    return this.#cancelling;
  }

  /** Runs the code until it returns, throws, parks, fails the replay guard, loses its lease or stops. */
  async execute(code: () => unknown): Promise<ExecutionEnd> {
    const renewal = setInterval(() => void this.#renew(), Math.max(10, this.#deps.leaseMs / 3));
    renewal.unref();
    try {
      const settled = Promise.resolve()
        .then(code)
        .then(
          (value): ExecutionEnd => ({ kind: 'returned', value }),
          (error: unknown): ExecutionEnd => ({ kind: 'threw', error }),
        );
      const end = await Promise.race([settled, this.#ending]);
      this.#finishWith(end);
      return end;
    } finally {
      clearInterval(renewal);
    }
  }

  /** Asks the execution to start nothing new: in-flight steps complete, then it ends `stopped`. */
  stop(): void {
    this.#stopping = true;
    this.#abort.abort(new WorkflowError('CANCELLED', 'the worker is shutting down'));
    this.#check();
  }

  // ---- the context -------------------------------------------------------------------

  async step<T>(
    id: string,
    fn: (step: StepContext) => T | Promise<T>,
    options?: StepOptions,
  ): Promise<T> {
    const where = `step "${id}"`;
    checkId(id, 'ctx.step');
    if (typeof fn !== 'function') {
      throw new WorkflowError(
        'INVALID_ARGUMENT',
        `${where}: expected a function to run, received ${typeof fn}`,
      );
    }
    const retry = retryPolicy(options?.retry, `ctx.step("${id}")`);
    const saved = this.#meet(id, 'step');
    if (saved) return this.#replay(saved) as T;
    if (!(await this.#beginLive(id, 'step'))) return never();
    const span = this.#span('step', id);
    let failure: unknown;
    try {
      if (this.#cancelling && !this.#cancelDelivered) throw this.#deliverCancel();
      const entry: HistoryEntry = {
        id,
        kind: 'step',
        seq: this.#nextSeq++,
        state: 'done',
        startedAt: Date.now(),
      };
      for (let attempt = 1; ; attempt++) {
        let value: unknown;
        try {
          value = await fn({ attempt, signal: this.signal, idempotencyKey: `${this.runId}:${id}` });
        } catch (error) {
          const last = attempt >= retry.maxAttempts || isNonRetryable(error) || this.#stopping;
          if (this.#stopping && !last) return never();
          if (!last) {
            await delay(retryDelay(retry, attempt));
            continue;
          }
          entry.attempts = attempt;
          entry.error = {
            name: 'WorkflowError',
            code: 'STEP_FAILED',
            message: `${where} failed${attempt > 1 ? ` after ${attempt} attempts` : ''}: ${errorMessage(error)}`,
          };
          break;
        }
        entry.attempts = attempt;
        try {
          const text = toCheckpoint(value, `the result of ${where}`, this.#deps.maxValueBytes);
          if (text !== undefined) entry.value = text;
        } catch (error) {
          const refused = error as WorkflowError;
          entry.error = { name: 'WorkflowError', code: refused.code, message: refused.message };
        }
        break;
      }
      entry.endedAt = Date.now();
      if (entry.attempts !== undefined)
        span?.setAttribute('fino.workflow.attempts', entry.attempts);
      failure = entry.error?.message;
      if (!(await this.#write(entry))) return never();
      return this.#replay(entry) as T;
    } finally {
      endSpan(span, failure);
      this.#liveEnded();
    }
  }

  sleep(id: string, ms: number): Promise<void> {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      return Promise.reject(
        new WorkflowError(
          'INVALID_ARGUMENT',
          `ctx.sleep("${id}", ms): expected a number of milliseconds ≥ 0, received ${String(ms)}`,
        ),
      );
    }
    return this.#timer(id, () => Date.now() + ms);
  }

  sleepUntil(id: string, at: Date | number): Promise<void> {
    const time = at instanceof Date ? at.getTime() : at;
    if (typeof time !== 'number' || !Number.isFinite(time)) {
      return Promise.reject(
        new WorkflowError(
          'INVALID_ARGUMENT',
          `ctx.sleepUntil("${id}", at): expected a Date or epoch milliseconds, received ${String(at)}`,
        ),
      );
    }
    return this.#timer(id, () => time);
  }

  waitForSignal<T = unknown>(name: string, options?: WaitForSignalOptions): Promise<T> {
    return this.#signalWait(name, options) as Promise<T>;
  }

  async now(): Promise<Date> {
    return new Date((await this.#value('now', () => Date.now())) as number);
  }

  random(): Promise<number> {
    return this.#value('random', () => Math.random()) as Promise<number>;
  }

  uuid(): Promise<string> {
    return this.#value('uuid', () => randomUUID()) as Promise<string>;
  }

  async version(changeId: string, range: { min: number; max: number }): Promise<number> {
    checkId(changeId, 'ctx.version');
    const { min, max } = range ?? ({} as { min: number; max: number });
    if (!Number.isInteger(min) || !Number.isInteger(max) || min > max) {
      throw new WorkflowError(
        'INVALID_ARGUMENT',
        `ctx.version("${changeId}"): expected whole numbers with min ≤ max, received min ${String(min)}, max ${String(max)}`,
      );
    }
    const id = `${AUTO}version:${changeId}`;
    const saved = this.#meet(id, 'version');
    if (saved) {
      const version = this.#replay(saved) as number;
      if (version < min || version > max) {
        return this.#fail(
          `ctx.version("${changeId}") supports versions ${min} to ${max}, but this run follows version ${version}: code that could replay it was removed`,
        );
      }
      return version;
    }
    // A history with entries still to meet was written by code that predates the change.
    const version = this.#unmet.size > 0 ? min : max;
    const entry: HistoryEntry = {
      id,
      kind: 'version',
      seq: this.#nextSeq++,
      state: 'done',
      value: JSON.stringify(version),
      startedAt: Date.now(),
    };
    this.#live++;
    try {
      if (!(await this.#write(entry))) return never();
    } finally {
      this.#liveEnded();
    }
    return version;
  }

  async call(tool: Callable, args: unknown, options?: CallOptions): Promise<ToolResultObject> {
    if (!tool || typeof tool.invoke !== 'function' || typeof tool.name !== 'string') {
      throw new WorkflowError(
        'INVALID_ARGUMENT',
        'ctx.call(tool): expected a fino Tool or Task (with a name and invoke())',
      );
    }
    const id = this.#autoId(options?.id, 'call', tool.name, 'ctx.call');
    const where = `call "${id}" of tool "${tool.name}"`;
    const retry = retryPolicy(options?.retry, `ctx.call("${id}")`);
    const saved = this.#meet(id, 'call');
    if (saved?.state === 'done') return this.#replay(saved) as ToolResultObject;
    if (this.#cancelling && (saved || !this.#cancelDelivered)) throw this.#deliverCancel();
    if (!saved && !(await this.#beginLive(id, 'call'))) return never();
    if (saved) this.#live++;
    const span = this.#span('call', id, { 'gen_ai.tool.name': tool.name });
    try {
      const progress = (saved ? fromCheckpoint(saved.value) : { round: 0 }) as {
        round: number;
        decisionId?: string;
      };
      const base = {
        id,
        kind: 'call' as const,
        seq: saved?.seq ?? this.#nextSeq++,
        startedAt: saved?.startedAt ?? Date.now(),
      };
      let resume: { resumeValue?: unknown } = {};
      if (progress.decisionId) {
        const decision = (await this.#deps.store.decisions(this.runId, [progress.decisionId])).get(
          progress.decisionId,
        );
        if (!decision) return this.#waitFor(id, [progress.decisionId]);
        if ('reject' in decision) {
          const rejected = {
            content: `Tool call "${tool.name}" was rejected: ${decision.reject}`,
            isError: true,
          };
          return (await this.#settle({
            ...base,
            state: 'done',
            value: JSON.stringify(rejected),
            endedAt: Date.now(),
          })) as ToolResultObject;
        }
        if ('resume' in decision) resume = { resumeValue: decision.resume };
      } else if (tool.requiresApproval === true) {
        const call = this.#pendingCall('approval', progress.round + 1, id, tool, args);
        return this.#suspendOn({ ...base, state: 'waiting' }, progress.round + 1, [call]);
      }
      const entry: HistoryEntry = { ...base, state: 'done' };
      for (let attempt = 1; ; attempt++) {
        let result: ToolResultObject;
        try {
          result = await tool.invoke(args, {
            signal: this.signal,
            toolCallId: id,
            runId: this.runId,
            idempotencyKey: `${this.runId}:${id}`,
            ...resume,
          });
        } catch (error) {
          if (controlFlowName(error) === 'SuspendSignal') {
            const { message, payload } = error as { message: string; payload?: unknown };
            const call = this.#pendingCall(
              'suspend',
              progress.round + 1,
              id,
              tool,
              args,
              message,
              payload,
            );
            return this.#suspendOn({ ...base, state: 'waiting' }, progress.round + 1, [call]);
          }
          if (attempt < retry.maxAttempts && !this.#stopping && !isNonRetryable(error)) {
            await delay(retryDelay(retry, attempt));
            continue;
          }
          entry.attempts = attempt;
          entry.error = {
            name: 'WorkflowError',
            code: 'STEP_FAILED',
            message: `${where} failed: ${errorMessage(error)}`,
          };
          break;
        }
        if (result.isError === true && attempt < retry.maxAttempts && !this.#stopping) {
          await delay(retryDelay(retry, attempt));
          continue;
        }
        entry.attempts = attempt;
        this.#fill(entry, result, `the result of ${where}`);
        break;
      }
      entry.endedAt = Date.now();
      return (await this.#settle(entry)) as ToolResultObject;
    } finally {
      endSpan(span);
      this.#liveEnded();
    }
  }

  async agent(
    agent: DurableAgent,
    prompt: AgentInput,
    options?: { id?: string },
  ): Promise<AgentOutcome> {
    if (!agent || typeof agent.generate !== 'function' || typeof agent.resume !== 'function') {
      throw new WorkflowError(
        'INVALID_ARGUMENT',
        'ctx.agent(agent): expected an agent of fino:ai/agent (with generate and resume)',
      );
    }
    const id = this.#autoId(options?.id, 'agent', 'agent', 'ctx.agent');
    const where = `agent "${id}"`;
    const saved = this.#meet(id, 'agent');
    if (saved?.state === 'done') return this.#replay(saved) as AgentOutcome;
    if (this.#cancelling && (saved || !this.#cancelDelivered)) throw this.#deliverCancel();
    if (!saved && !(await this.#beginLive(id, 'agent'))) return never();
    if (saved) this.#live++;
    const span = this.#span('agent', id);
    try {
      const progress = (saved ? fromCheckpoint(saved.value) : { round: 0 }) as {
        round: number;
        state?: RunState;
        decisions?: Record<string, string>; // decision id → the agent's tool call id
      };
      const base = {
        id,
        kind: 'agent' as const,
        seq: saved?.seq ?? this.#nextSeq++,
        startedAt: saved?.startedAt ?? Date.now(),
      };
      let decisions: Decisions | undefined;
      if (progress.decisions) {
        const ids = Object.keys(progress.decisions);
        const taken = await this.#deps.store.decisions(this.runId, ids);
        const missing = ids.filter((decisionId) => !taken.has(decisionId));
        if (missing.length > 0) return this.#waitFor(id, missing);
        decisions = {};
        for (const [decisionId, toolCallId] of Object.entries(progress.decisions)) {
          decisions[toolCallId] = taken.get(decisionId) as Decision;
        }
      }
      let lost = false;
      const runOptions: AgentRunOptions = {
        signal: this.signal,
        runId: `${this.runId}/${id}`,
        checkpointCopy: false,
        onCheckpoint: async (state, { reason }) => {
          // Decisions are in the store, a closed turn and the final state are rebuilt by resume (decision 066).
          if (reason === 'decisions' || reason === 'turn-closed' || reason === 'final') return;
          const value = toCheckpoint(
            { round: progress.round, state },
            `the state of ${where}`,
            this.#deps.maxValueBytes,
          );
          if (
            !(await this.#write({
              ...base,
              state: 'waiting',
              ...(value === undefined ? {} : { value }),
            }))
          ) {
            lost = true;
            throw new WorkflowError('CANCELLED', 'the lease was lost');
          }
        },
      };
      let result: RunResult;
      try {
        result = progress.state
          ? await agent.resume(progress.state, decisions, runOptions)
          : await agent.generate(prompt, runOptions);
      } catch (error) {
        if (lost || this.#ended) return never();
        const failed: HistoryEntry = {
          ...base,
          state: 'done',
          error: {
            name: 'WorkflowError',
            code: 'STEP_FAILED',
            message: `${where} failed: ${errorMessage(error)}`,
          },
          endedAt: Date.now(),
        };
        return (await this.#settle(failed)) as AgentOutcome;
      }
      if (result.status === 'done') {
        const outcome: AgentOutcome = { text: result.text };
        if (result.output !== undefined) outcome.output = result.output;
        const entry: HistoryEntry = { ...base, state: 'done', endedAt: Date.now() };
        this.#fill(entry, outcome, `the result of ${where}`);
        return (await this.#settle(entry)) as AgentOutcome;
      }
      const round = progress.round + 1;
      const calls = result.pending.map((call) => ({
        ...call,
        decisionId: `${id}#${round}/${call.toolCallId}`,
      }));
      const value = toCheckpoint(
        {
          round,
          state: result.state,
          decisions: Object.fromEntries(calls.map((c) => [c.decisionId, c.toolCallId])),
        },
        `the state of ${where}`,
        this.#deps.maxValueBytes,
      );
      return this.#suspendOn(
        { ...base, state: 'waiting', ...(value === undefined ? {} : { value }) },
        round,
        calls.map(({ decisionId, ...call }) => ({ decisionId, call })),
      );
    } finally {
      endSpan(span);
      this.#liveEnded();
    }
  }

  async child<Input, Output>(
    workflow: Workflow<Input, Output>,
    input: Input,
    options?: { id?: string },
  ): Promise<Output> {
    if (!workflow || typeof workflow.start !== 'function' || typeof workflow.id !== 'string') {
      throw new WorkflowError(
        'INVALID_ARGUMENT',
        'ctx.child(workflow): expected a workflow made by workflow()',
      );
    }
    const id = this.#autoId(options?.id, 'child', workflow.id, 'ctx.child');
    const where = `child workflow "${workflow.id}" (${id})`;
    let entry = this.#meet(id, 'child');
    if (entry?.state === 'done') return this.#replay(entry) as Output;
    if (this.#cancelling) throw this.#deliverCancel();
    const childRunId = `${this.runId}/${id}`;
    if (!entry) {
      if (!(await this.#beginLive(id, 'child'))) return never();
      try {
        entry = {
          id,
          kind: 'child',
          name: childRunId,
          seq: this.#nextSeq++,
          state: 'waiting',
          startedAt: Date.now(),
        };
        // The history entry first: a crash between the two starts the child on replay, once (its id is fixed).
        if (!(await this.#write(entry))) return never();
        await workflow.start(input, {
          store: this.#deps.store,
          runId: childRunId,
          parentRunId: this.runId,
        });
      } finally {
        this.#liveEnded();
      }
    }
    this.#live++;
    try {
      const child = await this.#deps.store.get(childRunId);
      if (!child) {
        await workflow.start(input, {
          store: this.#deps.store,
          runId: childRunId,
          parentRunId: this.runId,
        });
        return this.#waitForChild(id, childRunId);
      }
      if (child.status === 'running' || child.status === 'waiting')
        return this.#waitForChild(id, childRunId);
      const done: HistoryEntry = { ...entry, state: 'done', endedAt: Date.now() };
      if (child.status === 'done') {
        if (child.output !== undefined) done.value = child.output;
      } else {
        done.error =
          child.status === 'cancelled'
            ? { name: 'WorkflowError', code: 'CANCELLED', message: `${where} was cancelled` }
            : {
                name: 'WorkflowError',
                code: 'STEP_FAILED',
                message: `${where} failed: ${child.error?.message ?? 'unknown error'}`,
              };
      }
      return (await this.#settle(done)) as Output;
    } finally {
      this.#liveEnded();
    }
  }

  async emit(name: string, value?: unknown): Promise<void> {
    if (typeof name !== 'string' || name === '' || name.length > 200) {
      throw new WorkflowError(
        'INVALID_ARGUMENT',
        `ctx.emit(name): expected a name of 1 to 200 characters, received ${typeof name}`,
      );
    }
    const n = (this.#counters.get(`emit:${name}`) ?? 0) + 1;
    this.#counters.set(`emit:${name}`, n);
    const id = n === 1 ? `${AUTO}emit:${name}` : `${AUTO}emit:${name}#${n}`;
    if (this.#meet(id, 'emit')) return;
    if (!(await this.#beginLive(id, 'emit'))) return never();
    try {
      const entry: HistoryEntry = {
        id,
        kind: 'emit',
        name,
        seq: this.#nextSeq++,
        state: 'done',
        startedAt: Date.now(),
      };
      this.#fill(entry, value, `the value of event "${name}"`);
      if (entry.error) throw replayedError(entry.error);
      if (!(await this.#write(entry))) return never();
    } finally {
      this.#liveEnded();
    }
  }

  // ---- the engine --------------------------------------------------------------------

  /**
   * Marks `id` as met by an operation of `kind` and returns its saved entry, if any.
   * Fails the run with `NONDETERMINISM` for an id used twice or met with another kind.
   */
  #meet(id: string, kind: EntryKind): HistoryEntry | undefined {
    const before = this.#used.get(id);
    if (before !== undefined) {
      this.#fail(
        `${kind} "${id}" uses the id of ${before} "${id}", met earlier in this run: each step, wait and call needs its own id`,
      );
      return undefined;
    }
    this.#used.set(id, kind);
    const entry = this.#history.get(id);
    if (!entry) return undefined;
    this.#unmet.delete(id);
    if (entry.kind !== kind) {
      this.#fail(
        `the code reached ${kind} "${id}" where the history holds ${entry.kind} "${id}": the workflow's code changed under a running run (guard the change with ctx.version())`,
      );
      return undefined;
    }
    return entry;
  }

  /** The result a saved entry stands for: its value, or its failure thrown again. */
  #replay(entry: HistoryEntry): unknown {
    if (entry.error) throw replayedError(entry.error);
    return fromCheckpoint(entry.value);
  }

  /**
   * Begins a live operation: lets replay settle, then fails the run if the history still
   * holds entries the code did not meet (the code changed), and refuses when stopping.
   * Counts the operation as live until {@link #liveEnded}; `false` (the count already
   * undone) means "return never()".
   */
  async #beginLive(id: string, kind: EntryKind): Promise<boolean> {
    this.#live++;
    let going = false;
    try {
      going = await this.#mayGoLive(id, kind);
      return going;
    } finally {
      if (!going) this.#liveEnded(); // refused: the operation never runs, and must not keep the run busy
    }
  }

  /** Whether an operation may run live now (see {@link #beginLive}). */
  async #mayGoLive(id: string, kind: EntryKind): Promise<boolean> {
    if (this.#ended) return false;
    if (this.#history.size >= this.#deps.maxHistoryEntries) {
      throw new WorkflowError(
        'TOO_LARGE',
        `${kind} "${id}" would be checkpoint ${this.#history.size + 1} of run "${this.runId}", more than its limit of ${this.#deps.maxHistoryEntries} (maxHistoryEntries); split long work into child workflows`,
        { runId: this.runId },
      );
    }
    for (let turn = 0; this.#unmet.size > 0 && turn < 3; turn++) await nextTurn();
    if (this.#ended) return false;
    if (this.#unmet.size > 0) {
      const next = [...this.#unmet]
        .map((key) => this.#history.get(key)!)
        .sort((a, b) => a.seq - b.seq)[0];
      this.#fail(
        `the code reached ${kind} "${id}", which the history does not hold, before ${next.kind} "${next.id}", which it does: the workflow's code changed under a running run (guard the change with ctx.version())`,
      );
    }
    return !this.#stopping;
  }

  #liveEnded(): void {
    this.#live--;
    this.#check();
  }

  /** Writes an entry while holding the lease; `false` when the execution must end (lease lost). */
  async #write(entry: HistoryEntry): Promise<boolean> {
    if (this.#ended) return false;
    const lease = await this.#deps.store.record(
      this.runId,
      this.#deps.owner,
      entry,
      this.#deps.leaseMs,
    );
    return this.#learn(lease) && this.#saved(entry);
  }

  #saved(entry: HistoryEntry): boolean {
    this.#history.set(entry.id, entry);
    return !this.#ended;
  }

  /** Takes in what a lease write reported; `false` when the lease is lost. */
  #learn(lease: { held: boolean; cancelRequested: boolean }): boolean {
    if (!lease.held) {
      this.#endWith({ kind: 'lost' });
      return false;
    }
    if (lease.cancelRequested && !this.#cancelling) {
      this.#cancelling = true;
      this.#abort.abort(cancelled(this.runId));
    }
    return true;
  }

  async #renew(): Promise<void> {
    if (this.#ended) return;
    try {
      this.#learn(await this.#deps.store.renew(this.runId, this.#deps.owner, this.#deps.leaseMs));
    } catch {
      // A failed renewal is retried at the next interval; the lease outlives two of them.
    }
  }

  /** A durable timer: its deadline is fixed on first reach and saved. */
  async #timer(id: string, dueAt: () => number): Promise<void> {
    checkId(id, 'ctx.sleep');
    let entry = this.#meet(id, 'sleep');
    if (entry?.state === 'done') return;
    if (this.#cancelling) throw this.#deliverCancel();
    if (!entry) {
      if (!(await this.#beginLive(id, 'sleep'))) return never();
      try {
        entry = {
          id,
          kind: 'sleep',
          seq: this.#nextSeq++,
          state: 'waiting',
          dueAt: dueAt(),
          startedAt: Date.now(),
        };
        if (!(await this.#write(entry))) return never();
      } finally {
        this.#liveEnded();
      }
    }
    if (Date.now() >= entry.dueAt!) {
      this.#live++;
      try {
        if (!(await this.#write({ ...entry, state: 'done', endedAt: Date.now() }))) return never();
      } finally {
        this.#liveEnded();
      }
      return;
    }
    return this.#block(id, { timerDueAt: entry.dueAt });
  }

  async #signalWait(name: string, options: WaitForSignalOptions | undefined): Promise<unknown> {
    if (typeof name !== 'string' || name === '') {
      throw new WorkflowError(
        'INVALID_ARGUMENT',
        `ctx.waitForSignal(name): expected a signal name, received ${String(name)}`,
      );
    }
    if (this.#deps.signals && !this.#deps.signals.has(name)) {
      throw new WorkflowError(
        'UNKNOWN_SIGNAL',
        `ctx.waitForSignal("${name}"): the workflow "${this.workflowId}" declares no signal "${name}" (it declares ${[...this.#deps.signals].map((s) => `"${s}"`).join(', ') || 'none'})`,
      );
    }
    const timeoutMs = options?.timeoutMs;
    if (
      timeoutMs !== undefined &&
      (typeof timeoutMs !== 'number' || !(timeoutMs >= 0) || !Number.isFinite(timeoutMs))
    ) {
      throw new WorkflowError(
        'INVALID_ARGUMENT',
        `ctx.waitForSignal("${name}"): timeoutMs: expected a number of milliseconds ≥ 0, received ${String(timeoutMs)}`,
      );
    }
    let id = options?.id;
    if (id === undefined) {
      const n = (this.#counters.get(`signal:${name}`) ?? 0) + 1;
      this.#counters.set(`signal:${name}`, n);
      id = n === 1 ? `${AUTO}signal:${name}` : `${AUTO}signal:${name}#${n}`;
    } else checkId(id, 'ctx.waitForSignal');
    let entry = this.#meet(id, 'signal');
    if (entry?.state === 'done') return entry.timedOut ? undefined : this.#replay(entry);
    if (this.#cancelling) throw this.#deliverCancel();
    const fresh = !entry;
    if (fresh && !(await this.#beginLive(id, 'signal'))) return never();
    if (!fresh) this.#live++;
    try {
      entry ??= {
        id,
        kind: 'signal',
        name,
        seq: this.#nextSeq++,
        state: 'waiting',
        startedAt: Date.now(),
        ...(timeoutMs === undefined ? {} : { dueAt: Date.now() + timeoutMs }),
      };
      const taken = await this.#deps.store.consumeSignal(
        this.runId,
        this.#deps.owner,
        entry,
        this.#deps.leaseMs,
      );
      if (!this.#learn(taken)) return never();
      if (taken.consumed) {
        this.#saved(taken.entry!);
        return this.#replay(taken.entry!);
      }
      if (entry.dueAt !== undefined && Date.now() >= entry.dueAt) {
        if (!(await this.#write({ ...entry, state: 'done', timedOut: true, endedAt: Date.now() })))
          return never();
        return undefined;
      }
      if (fresh && !(await this.#write(entry))) return never();
    } finally {
      this.#liveEnded();
    }
    return this.#block(id, {
      signal: name,
      ...(entry.dueAt === undefined ? {} : { timerDueAt: entry.dueAt }),
    });
  }

  /** A saved value made up once (`now`, `random`, `uuid`). */
  async #value(kind: 'now' | 'random' | 'uuid', make: () => unknown): Promise<unknown> {
    const n = (this.#counters.get(kind) ?? 0) + 1;
    this.#counters.set(kind, n);
    const id = `${AUTO}${kind}#${n}`;
    const saved = this.#meet(id, kind);
    if (saved) return this.#replay(saved);
    if (!(await this.#beginLive(id, kind))) return never();
    try {
      const value = make();
      const entry: HistoryEntry = {
        id,
        kind,
        seq: this.#nextSeq++,
        state: 'done',
        value: JSON.stringify(value),
        startedAt: Date.now(),
      };
      if (!(await this.#write(entry))) return never();
      return value;
    } finally {
      this.#liveEnded();
    }
  }

  /** A span for a live operation, when tracing is on. */
  #span(
    kind: EntryKind,
    id: string,
    attributes: Record<string, string> = {},
  ): OtelSpan | undefined {
    return this.#deps.span?.(`workflow.${kind} ${id}`, {
      'fino.workflow.run_id': this.runId,
      'fino.workflow.step.id': id,
      'fino.workflow.step.kind': kind,
      ...attributes,
    });
  }

  /** The id of a `call` or `agent`: the caller's, or `$<kind>:<name>` numbered by occurrence. */
  #autoId(given: string | undefined, kind: string, name: string, where: string): string {
    if (given !== undefined) {
      checkId(given, where);
      return given;
    }
    const n = (this.#counters.get(`${kind}:${name}`) ?? 0) + 1;
    this.#counters.set(`${kind}:${name}`, n);
    return n === 1 ? `${AUTO}${kind}:${name}` : `${AUTO}${kind}:${name}#${n}`;
  }

  /** A pending decision on a `ctx.call`: an approval, or a suspension's answer. */
  #pendingCall(
    kind: 'approval' | 'suspend',
    round: number,
    id: string,
    tool: Callable,
    args: unknown,
    reason?: string,
    payload?: unknown,
  ): { decisionId: string; call: PendingCall } {
    const decisionId = round === 1 ? id : `${id}#${round}`;
    const call: PendingCall = {
      kind,
      toolCallId: decisionId,
      toolName: tool.name,
      args,
      argsHash: argsHash(args),
    };
    if (reason !== undefined) call.reason = reason;
    if (payload !== undefined) call.payload = payload;
    if (tool.risk !== undefined) call.risk = tool.risk;
    if (tool.sideEffects !== undefined) call.sideEffects = tool.sideEffects;
    return { decisionId, call };
  }

  /**
   * Records `entry` (waiting, with its round) and creates its pending decisions in one
   * transaction, hands each token out once, and waits for the decisions.
   */
  async #suspendOn(
    entry: HistoryEntry,
    round: number,
    pending: Array<{ decisionId: string; call: PendingCall }>,
  ): Promise<never> {
    const decisionIds = pending.map((p) => p.decisionId);
    const written: HistoryEntry =
      entry.value === undefined
        ? { ...entry, value: JSON.stringify({ round, decisionId: decisionIds[0] }) }
        : entry;
    const tokens = pending.map(() => newToken());
    toCheckpoint(
      pending.map((p) => p.call),
      `the pending calls of "${entry.id}"`,
      this.#deps.maxValueBytes,
    );
    const lease = await this.#deps.store.suspend(
      this.runId,
      this.#deps.owner,
      written,
      pending.map((p, i) => ({ ...p, tokenHash: hashToken(tokens[i]) })),
      this.#deps.leaseMs,
    );
    if (!this.#learn(lease)) return never();
    this.#saved(written);
    pending.forEach((p, i) => {
      try {
        this.#deps.onPending?.({
          runId: this.runId,
          workflowId: this.workflowId,
          decisionId: p.decisionId,
          call: p.call,
          token: tokens[i],
        });
      } catch {
        // A throwing listener loses nothing: the decision can still be named by run and decision id.
      }
    });
    return this.#block(entry.id, { decisions: decisionIds });
  }

  /** Waits for a child run to end: its end wakes this run (the live operation ends here). */
  #waitForChild(id: string, childRunId: string): Promise<never> {
    return this.#block(id, { child: childRunId });
  }

  /** Waits for decisions not taken yet (the live operation ends here). */
  #waitFor(id: string, decisionIds: string[]): Promise<never> {
    return this.#block(id, { decisions: decisionIds });
  }

  /** Puts a result into an entry: its JSON, or the refusal (`NOT_JSON`, `TOO_LARGE`) as its error. */
  #fill(entry: HistoryEntry, value: unknown, what: string): void {
    try {
      const text = toCheckpoint(value, what, this.#deps.maxValueBytes);
      if (text !== undefined) entry.value = text;
    } catch (error) {
      const refused = error as WorkflowError;
      entry.error = { name: 'WorkflowError', code: refused.code, message: refused.message };
    }
  }

  /** Writes a finished entry and returns its result (or throws its failure). */
  async #settle(entry: HistoryEntry): Promise<unknown> {
    if (!(await this.#write(entry))) return never();
    return this.#replay(entry);
  }

  /**
   * The cancellation, thrown into the code: at every wait of a cancelled run, and at the
   * first step it starts after learning of it; later steps run (they are cleanup).
   */
  #deliverCancel(): WorkflowError {
    this.#cancelDelivered = true;
    return cancelled(this.runId);
  }

  /** Registers a wait that cannot complete now; the promise never settles (the execution parks). */
  #block(
    id: string,
    on: { timerDueAt?: number; signal?: string; decisions?: string[]; child?: string },
  ): Promise<never> {
    this.#blocked.set(id, on);
    this.#check();
    return never();
  }

  /** After a live operation ends: park when only waits remain, end when stopping and idle. */
  #check(): void {
    setImmediate(() => {
      if (this.#ended || this.#live > 0) return;
      if (this.#stopping) return this.#endWith({ kind: 'stopped' });
      if (this.#blocked.size === 0) return;
      const waits = [...this.#blocked.values()];
      const timers = waits.flatMap((w) => (w.timerDueAt === undefined ? [] : [w.timerDueAt]));
      const waiting: WaitingOn = {
        signals: [...new Set(waits.flatMap((w) => (w.signal ? [w.signal] : [])))],
        decisions: waits.flatMap((w) => w.decisions ?? []),
        children: waits.flatMap((w) => (w.child ? [w.child] : [])),
      };
      if (timers.length > 0) waiting.timerDueAt = Math.min(...timers);
      this.#endWith({ kind: 'park', waiting });
    });
  }

  /** Fails the run with `NONDETERMINISM`; the code's pending operations never settle. */
  #fail(message: string): never {
    const error = new WorkflowError('NONDETERMINISM', message, { runId: this.runId });
    this.#endWith({ kind: 'fatal', error });
    throw error;
  }

  #endWith(end: ExecutionEnd): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#end(end);
  }

  #finishWith(end: ExecutionEnd): void {
    this.#ended = true;
    if (end.kind !== 'returned' && end.kind !== 'threw' && !this.#abort.signal.aborted) {
      this.#abort.abort(new WorkflowError('CANCELLED', 'the execution ended'));
    }
  }
}

/** Checks an operation id: a non-empty string of at most 200 characters, not starting with "$". */
function checkId(id: unknown, where: string): asserts id is string {
  if (typeof id !== 'string' || id === '' || id.length > MAX_ID_LENGTH || id.startsWith(AUTO)) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `${where}(id): expected a non-empty id of at most ${MAX_ID_LENGTH} characters, not starting with "${AUTO}", received ${typeof id === 'string' ? JSON.stringify(id.slice(0, 60)) : typeof id}`,
    );
  }
}
