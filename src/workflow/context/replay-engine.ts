/**
 * The replay engine behind the workflow context (decision 137): one execution of a run's
 * code against its history. The operations of `ctx` (in `step.ts`, `timers.ts`,
 * `signal-wait.ts`, `deterministic-values.ts`, `code-version.ts`, `tool-call.ts`,
 * `agent-child.ts`, `child-workflow.ts`, `emit-event.ts`; `pending-decisions.ts` parks a
 * run on decisions) are written against it; `context.ts` wraps it as the `ctx` user code sees.
 * What an execution needs, how it ends and what a parked run waits on: `execution-end.ts`.
 *
 * Every operation has an id, unique in the run; its first completion is written to the
 * run's history before its result is returned, and on every later execution the
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
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { OtelSpan } from '../../ai/agent/index.ts';
import { unreadableEntry, WorkflowError } from '../errors.ts';
import { fromCheckpoint } from '../json-value.ts';
import type { EntryKind, HistoryEntry, StoredWorkflowRun, WorkflowStore } from '../types.ts';
import { type Blocked, type ExecutionDeps, type ExecutionEnd, waitingOn } from './execution-end.ts';
import { AUTO, checkId } from './operation-id.ts';
import { handlersOf } from './request-handlers.ts';
import { fillEntry, replayedError } from './saved-result.ts';
import { guardStore } from './store-guard.ts';

/** The promise an operation returns when this execution must not go on: it never settles. */
export const never = <T>(): Promise<T> => new Promise<T>(() => {});

/** The cancellation a waiting operation throws in a cancelled run. */
const cancelled = (runId: string) =>
  new WorkflowError('CANCELLED', `workflow run "${runId}" was cancelled`, { runId });

/**
 * One execution of a run's code against its history. Its public members are for the
 * operations of this folder; user code sees only the {@link WorkflowContext} wrapping it.
 */
export class ReplayEngine {
  readonly runId: string;
  readonly workflowId: string;
  readonly signal: AbortSignal;
  readonly deps: ExecutionDeps;
  readonly #abort = new AbortController();
  /** The store unguarded, for renewals: one that fails is tried again at the next interval. */
  readonly #renewals: WorkflowStore;
  readonly #history = new Map<string, HistoryEntry>();
  readonly #unmet = new Set<string>();
  readonly #used = new Map<string, EntryKind>();
  readonly #counters = new Map<string, number>();
  readonly #blocked = new Map<string, Blocked>();
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
    this.#renewals = deps.store;
    // A database failure ends this execution, never the run (`store-guard.ts`).
    this.deps = {
      ...deps,
      store: guardStore(deps.store, (error) => this.#endWith({ kind: 'unavailable', error })),
    };
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

  /** Whether the cancellation was already thrown into the code. */
  get cancelDelivered(): boolean {
    return this.#cancelDelivered;
  }

  /** Whether the worker asked this execution to start nothing new. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** Whether this execution has ended (its operations must write nothing more). */
  get ended(): boolean {
    return this.#ended;
  }

  /** How many entries of the history the code has not met yet in this execution. */
  get unmetCount(): number {
    return this.#unmet.size;
  }

  /** The ids of the waits blocked now. */
  get blockedIds(): string[] {
    return [...this.#blocked.keys()];
  }

  /** The sequence number of the next new history entry. */
  nextSeq(): number {
    return this.#nextSeq++;
  }

  /**
   * The history entry of an operation first reached: numbered next, waiting, started now.
   * Made at the point each operation would number it, so the order of sequence numbers holds.
   */
  waitingEntry(id: string, kind: EntryKind, fields?: Partial<HistoryEntry>): HistoryEntry {
    return { id, kind, seq: this.nextSeq(), state: 'waiting', startedAt: Date.now(), ...fields };
  }

  /** Counts an occurrence of `key` in this execution: 1 the first time, then 2, … */
  occurrence(key: string): number {
    const n = (this.#counters.get(key) ?? 0) + 1;
    this.#counters.set(key, n);
    return n;
  }

  /** Runs the code until it returns, throws, parks, fails the replay guard, loses its lease or stops. */
  async execute(code: () => unknown): Promise<ExecutionEnd> {
    const renewal = setInterval(() => void this.#renew(), Math.max(10, this.deps.leaseMs / 3));
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

  /** Counts a resumed operation as live until {@link liveEnded} (a new one uses {@link beginLive}). */
  enterLive(): void {
    this.#live++;
  }

  /**
   * Marks `id` as met by an operation of `kind` and returns its saved entry, if any.
   * Fails the run with `NONDETERMINISM` for an id used twice or met with another kind.
   */
  meet(id: string, kind: EntryKind): HistoryEntry | undefined {
    const refused = handlersOf(this)?.beforeMeet(id, kind); // queries and updates
    if (refused) return refused;
    const before = this.#used.get(id);
    if (before !== undefined) {
      this.fail(
        `${kind} "${id}" uses the id of ${before} "${id}", met earlier in this run: each step, wait and call needs its own id`,
      );
      return undefined;
    }
    this.#used.set(id, kind);
    const entry = this.#history.get(id);
    if (!entry) return undefined;
    this.#unmet.delete(id);
    if (entry.kind !== kind) {
      this.fail(
        `the code reached ${kind} "${id}" where the history holds ${entry.kind} "${id}": the workflow's code changed under a running run (guard the change with ctx.version())`,
      );
      return undefined;
    }
    return entry;
  }

  /** The result a saved entry stands for: its value, or its failure thrown again. */
  replay(entry: HistoryEntry): unknown {
    if (entry.error) throw replayedError(entry.error);
    return this.savedValue(entry);
  }

  /**
   * The value a saved entry holds; a value that is not JSON (the row was changed behind
   * the store's back) fails the run with `CORRUPT_RUN` naming the entry (decision 180).
   */
  savedValue(entry: HistoryEntry): unknown {
    try {
      return fromCheckpoint(entry.value);
    } catch (error) {
      const why = `its value is not JSON (${(error as Error).message})`;
      const corrupt = unreadableEntry(this.runId, entry.id, entry.seq, why);
      this.#endWith({ kind: 'fatal', error: corrupt });
      throw corrupt;
    }
  }

  /**
   * Begins a live operation: lets replay settle, then fails the run if the history still
   * holds entries the code did not meet (the code changed), and refuses when stopping.
   * Counts the operation as live until {@link liveEnded}; `false` (the count already
   * undone) means "return never()".
   */
  async beginLive(id: string, kind: EntryKind): Promise<boolean> {
    this.#live++;
    let going = false;
    try {
      going = await this.#mayGoLive(id, kind);
      return going;
    } finally {
      if (!going) this.liveEnded(); // refused: the operation never runs, and must not keep the run busy
    }
  }

  /** Whether an operation may run live now (see {@link beginLive}). */
  async #mayGoLive(id: string, kind: EntryKind): Promise<boolean> {
    if (this.#ended) return false;
    if (this.#history.size >= this.deps.maxHistoryEntries) {
      throw new WorkflowError(
        'TOO_LARGE',
        `${kind} "${id}" would be checkpoint ${this.#history.size + 1} of run "${this.runId}", more than its limit of ${this.deps.maxHistoryEntries} (maxHistoryEntries); split long work into child workflows`,
        { runId: this.runId },
      );
    }
    for (let turn = 0; this.#unmet.size > 0 && turn < 3; turn++) await nextTurn();
    if (this.#ended) return false;
    if (this.#unmet.size > 0) {
      const next = [...this.#unmet]
        .map((key) => this.#history.get(key)!)
        .sort((a, b) => a.seq - b.seq)[0];
      this.fail(
        `the code reached ${kind} "${id}", which the history does not hold, before ${next.kind} "${next.id}", which it does: the workflow's code changed under a running run (guard the change with ctx.version())`,
      );
    }
    return !this.#stopping;
  }

  /** Ends a live operation (begun by {@link beginLive} or {@link enterLive}). */
  liveEnded(): void {
    this.#live--;
    this.#check();
  }

  /** Writes an entry while holding the lease; `false` when the execution must end (lease lost). */
  async write(entry: HistoryEntry): Promise<boolean> {
    if (this.#ended) return false;
    const lease = await this.deps.store.record(
      this.runId,
      this.deps.owner,
      entry,
      this.deps.leaseMs,
    );
    return this.learn(lease) && this.saved(entry);
  }

  /** Takes a written entry into the history; `false` when the execution has ended. */
  saved(entry: HistoryEntry): boolean {
    this.#history.set(entry.id, entry);
    return !this.#ended;
  }

  /** Takes in what a lease write reported; `false` when the lease is lost. */
  learn(lease: { held: boolean; cancelRequested: boolean }): boolean {
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
      this.learn(await this.#renewals.renew(this.runId, this.deps.owner, this.deps.leaseMs));
    } catch {
      // A failed renewal is retried at the next interval; the lease outlives two of them.
    }
  }

  /** A span for a live operation, when tracing is on. */
  span(kind: EntryKind, id: string, attributes: Record<string, string> = {}): OtelSpan | undefined {
    return this.deps.span?.(`workflow.${kind} ${id}`, {
      'fino.workflow.run_id': this.runId,
      'fino.workflow.step.id': id,
      'fino.workflow.step.kind': kind,
      ...attributes,
    });
  }

  /** The id of a `call` or `agent`: the caller's, or `$<kind>:<name>` numbered by occurrence. */
  autoId(given: string | undefined, kind: string, name: string, where: string): string {
    if (given !== undefined) {
      checkId(given, where);
      return given;
    }
    return this.numberedId(`${kind}:${name}`);
  }

  /** `$<key>` the first time this execution asks, then `$<key>#2`, `$<key>#3`, … */
  numberedId(key: string): string {
    const n = this.occurrence(key);
    return n === 1 ? `${AUTO}${key}` : `${AUTO}${key}#${n}`;
  }

  /** Waits for a child run to end: its end wakes this run (the live operation ends here). */
  waitForChild(id: string, childRunId: string): Promise<never> {
    return this.block(id, { child: childRunId });
  }

  /** Waits for decisions not taken yet (the live operation ends here). */
  waitFor(id: string, decisionIds: string[]): Promise<never> {
    return this.block(id, { decisions: decisionIds });
  }

  /** Puts a result into an entry (see {@link fillEntry}), within this run's `maxValueBytes`. */
  fill(entry: HistoryEntry, value: unknown, what: string): void {
    fillEntry(entry, value, what, this.deps.maxValueBytes);
  }

  /** Writes a finished entry and returns its result (or throws its failure). */
  async settle(entry: HistoryEntry): Promise<unknown> {
    if (!(await this.write(entry))) return never();
    return this.replay(entry);
  }

  /**
   * The cancellation, thrown into the code: at every wait of a cancelled run, and at the
   * first step it starts after learning of it; later steps run (they are cleanup).
   */
  deliverCancel(): WorkflowError {
    this.#cancelDelivered = true;
    return cancelled(this.runId);
  }

  /** Registers a wait that cannot complete now; the promise never settles (the execution parks). */
  block(id: string, on: Blocked): Promise<never> {
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
      this.#endWith({ kind: 'park', waiting: waitingOn([...this.#blocked.values()]) });
    });
  }

  /** Fails the run with `NONDETERMINISM`; the code's pending operations never settle. */
  fail(message: string): never {
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
