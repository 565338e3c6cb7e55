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
import { errorMessage } from '../internal/thrown-value.ts';
import { isNonRetryable, WorkflowError } from './errors.ts';
import { fromCheckpoint, toCheckpoint } from './json-value.ts';
import { type RetryPolicy, retryDelay, retryPolicy } from './retry.ts';
import type {
  EntryKind,
  HistoryEntry,
  StoredError,
  StoredWorkflowRun,
  WaitingOn,
  WorkflowStore,
} from './types.ts';

/** What a step's function receives. */
export interface StepContext {
  /** The attempt, from 1. */
  attempt: number;
  /** Aborted when the run is cancelled or its worker shuts down. */
  signal: AbortSignal;
  /** `<runId>:<stepId>`: the same in every attempt and after a crash; pass it to external systems. */
  idempotencyKey: string;
}

/** Options of `ctx.step`. */
export interface StepOptions {
  retry?: RetryPolicy;
}

/** Options of `ctx.waitForSignal`. */
export interface WaitForSignalOptions {
  /** Give up after this many ms: the wait then returns `undefined`. */
  timeoutMs?: number;
  /** The wait's id in the history (default: the signal's name, then `name#2`, … for later waits). */
  id?: string;
}

/**
 * What a workflow's `run(ctx, input)` receives. Every method is checkpointed: on replay
 * it returns the saved result without running again.
 */
export interface WorkflowContext {
  readonly runId: string;
  readonly workflowId: string;
  /** Aborted when the run is cancelled or its worker shuts down. */
  readonly signal: AbortSignal;
  /**
   * Runs `fn` once and saves its result (which must be JSON); on replay returns the saved
   * result, or throws the saved failure (`STEP_FAILED`). `retry` retries a throwing `fn`
   * with exponential backoff; a {@link NonRetryableError} stops the retries.
   */
  step<T>(id: string, fn: (step: StepContext) => T | Promise<T>, options?: StepOptions): Promise<T>;
  /** Waits `ms` milliseconds, durably: the deadline is saved, and a worker fires it after any restart. */
  sleep(id: string, ms: number): Promise<void>;
  /** Waits until `at`, durably. */
  sleepUntil(id: string, at: Date | number): Promise<void>;
  /**
   * Waits for the signal `name` (queued signals are consumed oldest first, each once)
   * and returns its payload; with `timeoutMs`, `undefined` once that has passed.
   */
  waitForSignal<T = unknown>(
    name: string,
    options: WaitForSignalOptions & { timeoutMs: number },
  ): Promise<T | undefined>;
  waitForSignal<T = unknown>(name: string, options?: WaitForSignalOptions): Promise<T>;
  /** The current time, saved: a replay sees the same moment. */
  now(): Promise<Date>;
  /** A random number in [0, 1), saved. */
  random(): Promise<number>;
  /** A random UUID, saved. */
  uuid(): Promise<string>;
  /**
   * Which version of the code path `changeId` this run follows: `max` for a run that
   * reaches this point for the first time, `min` for a run whose history was written
   * before the change. Saved, so the run keeps its version. Branch on it to change code
   * under running workflows safely.
   */
  version(changeId: string, range: { min: number; max: number }): Promise<number>;
}

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
  /** Declared signal names, when the workflow declares them. */
  signals?: ReadonlySet<string>;
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
    { timerDueAt?: number; signal?: string; decision?: string }
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
            await delay(retryDelay(retry, attempt), undefined, { ref: false });
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
      if (!(await this.#write(entry))) return never();
      return this.#replay(entry) as T;
    } finally {
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
   * Counts the operation as live until {@link #liveEnded}; `false` means "return never()".
   */
  async #beginLive(id: string, kind: EntryKind): Promise<boolean> {
    this.#live++;
    if (this.#ended) return false;
    for (let turn = 0; this.#unmet.size > 0 && turn < 3; turn++) await nextTurn();
    if (this.#ended) return false;
    if (this.#unmet.size > 0) {
      const next = [...this.#unmet]
        .map((key) => this.#history.get(key)!)
        .sort((a, b) => a.seq - b.seq)[0];
      this.#fail(
        `the code reached ${kind} "${id}", which the history does not hold, before ${next.kind} "${next.id}", which it does: the workflow's code changed under a running run (guard the change with ctx.version())`,
      );
      return false;
    }
    if (this.#stopping) return false;
    return true;
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
    on: { timerDueAt?: number; signal?: string; decision?: string },
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
        decisions: waits.flatMap((w) => (w.decision ? [w.decision] : [])),
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
