/**
 * The records of `fino:workflow` as stores keep them, and the store interface that the
 * memory, SQLite and PostgreSQL stores implement.
 */

import type { Decision, PendingCall } from '../ai/agent/index.ts';
import type { WorkflowError } from './errors.ts';
import type {
  ChainStore,
  RepairStore,
  RequestStore,
  ScheduleStore,
  StreamStore,
  WakeupStore,
} from './store-parts.ts';

export type * from './store-parts.ts';

/** Where a run stands; `continued`: it ended with `ctx.continueAsNew`, and its successor runs on. */
export type WorkflowStatus = 'running' | 'waiting' | 'done' | 'error' | 'cancelled' | 'continued';

/** An error as the history keeps it: readable in any process, replayed as it was. */
export interface StoredError {
  name: string;
  message: string;
  code?: string;
}

/** What a waiting run waits on: the earliest timer, signal names, pending decisions. */
export interface WaitingOn {
  /** Epoch milliseconds of the earliest timer (a sleep or a signal's timeout). */
  timerDueAt?: number;
  /** Names of the signals it waits for. */
  signals: string[];
  /** Ids of the pending decisions it waits for. */
  decisions: string[];
  /** Run ids of the child workflows it waits for. */
  children?: string[];
  /** Parked after its cancellation, until those children have ended (decision 232). */
  afterCancel?: true;
  /** Whether its code registered query or update handlers: a request wakes it. */
  requests?: boolean;
}

/**
 * What a child run does when its parent is cancelled (decision 232): `cancel` it (the
 * default: the parent waits until it has ended), `abandon` it (it runs on; the parent
 * does not wait), or `wait` for it to end as it would (not cancelled).
 */
export type ChildCancelPolicy = 'cancel' | 'abandon' | 'wait';

/** The kinds of checkpoint a history holds. */
export type EntryKind =
  | 'step'
  | 'call'
  | 'sleep'
  | 'signal'
  | 'now'
  | 'random'
  | 'uuid'
  | 'version'
  | 'decision'
  | 'agent'
  | 'child'
  | 'emit'
  | 'update';

/**
 * One checkpoint of a run's history, keyed by its id (unique in the run). `done` entries
 * are replayed as they are; a `waiting` entry (a sleep or a wait that has begun) keeps
 * the wait's fixed deadline so every replay waits for the same moment.
 */
export interface HistoryEntry {
  id: string;
  kind: EntryKind;
  /** Order of first recording, from 1. */
  seq: number;
  state: 'done' | 'waiting';
  /** The result as JSON text (absent for `undefined`). */
  value?: string;
  /** The failure, for a step that failed on its last attempt. */
  error?: StoredError;
  /** For a wait: when it times out or fires (epoch ms). */
  dueAt?: number;
  /** For a signal wait: the signal's name; for a step: attempts made. */
  name?: string;
  attempts?: number;
  /** Whether a signal wait ended by its timeout. */
  timedOut?: boolean;
  /** For an update: its arguments as JSON text, and the waits blocked when it was applied. */
  args?: string;
  blockedOn?: string[];
  /** Epoch ms of the first recording and of the last change. */
  startedAt: number;
  endedAt?: number;
}

/** A run as a store returns it. */
export interface StoredWorkflowRun {
  runId: string;
  workflowId: string;
  key?: string;
  status: WorkflowStatus;
  /** The input as JSON text (absent for `undefined`). */
  input?: string;
  /** The output as JSON text, when done. */
  output?: string;
  /** Why it failed, when `error` (or why a cancelled run's code threw). */
  error?: StoredError;
  /** What it waits on, when `waiting`. */
  waiting?: WaitingOn;
  /** When a worker should next look at it (epoch ms); absent while it waits only for a signal or a decision. */
  wakeAt?: number;
  cancelRequested: boolean;
  /** The run that started it with `ctx.child`. */
  parentRunId?: string;
  /** For a child run: what it does when its parent is cancelled (absent: `cancel`). */
  onParentCancel?: ChildCancelPolicy;
  /** For a fork: the run whose history it copied, up to the entry it was forked from. */
  forkedFrom?: { runId: string; fromStep: string };
  /**
   * The signal names its workflow declared when the run started (absent when it declared
   * none, or for runs of fino before decision 181): signals of other names are refused.
   */
  signals?: string[];
  leaseOwner?: string;
  leaseExpiresAt?: number;
  /** The run it continues (`ctx.continueAsNew`), the run that continues it, and the first run of its chain. */
  continuedFrom?: string;
  continuedTo?: string;
  chainRoot?: string;
  createdAt: number;
  updatedAt: number;
  /** Set by `list` for a row that cannot be read whole: why (the rest is left out). */
  corrupt?: string;
}

/** What a lease holder learns from each write: whether it still holds the run, and whether it was cancelled. */
export interface LeaseState {
  held: boolean;
  cancelRequested: boolean;
}

/** How a leased execution ends. */
export type RunOutcome =
  | { status: 'done'; output?: string }
  | { status: 'error'; error: StoredError }
  | { status: 'cancelled'; error?: StoredError };

/** A decision a run waits for: a tool call to approve, or a suspension to answer. */
export interface StoredPending extends PendingCall {
  runId: string;
  /** The workflow of the run. */
  workflowId: string;
  /** Unique in the run; names the decision with the run id when the token is not at hand. */
  decisionId: string;
  /**
   * The pending call again, as it was shown before decision 159: its fields are now at
   * the top (`toolName`, `args`, `argsHash`, `kind`, …), as on every pending call of fino.
   *
   * @deprecated Read the top-level fields; `call` goes in the next minor release.
   */
  call: PendingCall;
  decision?: Decision;
  createdAt: number;
}

/** A new pending decision as an execution creates it: the token's hash only is stored. */
export interface NewPending {
  decisionId: string;
  call: PendingCall;
  tokenHash: string;
}

/** A pending decision by its token, or by run and decision id. */
export type DecisionRef = string | { runId: string; decisionId: string };

/** One line of a run's audit trail. */
export interface WorkflowAuditEntry {
  /** ISO 8601 time. */
  at: string;
  action:
    | 'approve'
    | 'reject'
    | 'resume'
    | 'cancel'
    | 'retry'
    | 'fork'
    | 'schedule-create'
    | 'schedule-pause'
    | 'schedule-resume'
    | 'schedule-delete';
  decisionId?: string;
  toolName?: string;
  by?: string;
  note?: string;
}

/** Who decides, and why: recorded in the audit trail. */
export interface WorkflowActor {
  by?: string;
  note?: string;
}

/** Filters of `list`. */
export interface WorkflowListFilter {
  status?: WorkflowStatus;
  workflowId?: string;
  /** At most this many runs, oldest first (default 1 000). */
  limit?: number;
}

/**
 * Durable storage of workflow runs: the runs, their histories and their signals. Every
 * method is atomic, and leases are decided by the database, so several processes (and,
 * on PostgreSQL, several machines) can share one store. `memoryWorkflowStore()`,
 * `sqliteWorkflowStore()` and `postgresWorkflowStore()` implement it and pass one
 * conformance suite.
 */
export interface WorkflowStore
  extends StreamStore,
    RepairStore,
    ChainStore,
    RequestStore,
    ScheduleStore,
    WakeupStore {
  /**
   * Creates a run, runnable at once; with a `key` already used by a run of the same
   * workflow, returns that run instead (`created: false`).
   */
  create(run: {
    runId: string;
    workflowId: string;
    key?: string;
    input?: string;
    /** The run that started it with `ctx.child`: woken when it ends. */
    parentRunId?: string;
    /** The signal names its workflow declares, when it declares them. */
    signals?: string[];
    /** For a child run: what it does when its parent is cancelled. */
    onParentCancel?: ChildCancelPolicy;
  }): Promise<{ run: StoredWorkflowRun; created: boolean }>;
  get(runId: string): Promise<StoredWorkflowRun | undefined>;
  list(filter?: WorkflowListFilter): Promise<StoredWorkflowRun[]>;
  /** The run's history, in recording order. */
  history(runId: string): Promise<HistoryEntry[]>;
  /**
   * Leases to `owner` the runnable run of one of `workflowIds` that is due the longest
   * (new, woken, timer due, cancelled, or leased by a worker whose lease expired), not
   * in `exclude`. Runs that cannot be read are skipped, left untouched, and returned in
   * `corrupt` (`CORRUPT_RUN` errors with their run ids).
   */
  claimNext(
    owner: string,
    leaseMs: number,
    workflowIds: readonly string[],
    exclude?: readonly string[],
  ): Promise<{ run?: StoredWorkflowRun; corrupt: WorkflowError[] }>;
  /** Workflow ids of due runs that are not in `workflowIds` (no worker here knows them). */
  dueElsewhere(workflowIds: readonly string[]): Promise<string[]>;
  /** When the next run of `workflowIds` becomes due (epoch ms), if any is scheduled. */
  nextWake(workflowIds: readonly string[]): Promise<number | undefined>;
  /** Writes (inserts or replaces) a history entry while `owner` holds the run, extending the lease. */
  record(runId: string, owner: string, entry: HistoryEntry, leaseMs: number): Promise<LeaseState>;
  /**
   * Consumes the oldest unconsumed signal `name` of the run for the wait `entry` and
   * records the wait as done with its payload, in one transaction: a signal is consumed
   * once. `consumed: false` (nothing written) when none is queued.
   */
  consumeSignal(
    runId: string,
    owner: string,
    entry: HistoryEntry,
    leaseMs: number,
  ): Promise<LeaseState & { consumed: boolean; entry?: HistoryEntry }>;
  /** Extends the lease. */
  renew(runId: string, owner: string, leaseMs: number): Promise<LeaseState>;
  /**
   * Parks the run as `waiting` on `waiting` and ends the lease — unless something it
   * waits for is already there (a queued signal of a waited name, a due timer, a
   * cancellation), in which case it stays leased: `'again'`. `'lost'` when `owner` no
   * longer holds it.
   */
  park(runId: string, owner: string, waiting: WaitingOn): Promise<'parked' | 'again' | 'lost'>;
  /** Ends the run with `outcome`; `false` (nothing written) when `owner` no longer holds it. */
  finish(runId: string, owner: string, outcome: RunOutcome): Promise<boolean>;
  /** Ends `owner`'s lease without changing the run, so another worker may take it at once. */
  release(runId: string, owner: string): Promise<void>;
  /**
   * Queues a signal for the run and wakes it when it waits for that name. `NOT_FOUND`,
   * `RUN_FINISHED`, or `SIGNAL_QUEUE_FULL` at `maxQueued` unconsumed signals.
   */
  signal(
    runId: string,
    name: string,
    payload: string | undefined,
    maxQueued: number,
  ): Promise<void>;
  /**
   * Asks the run to stop: it becomes runnable, and its next execution throws `CANCELLED`
   * at its waits, so its `finally` blocks run. `NOT_FOUND`, or `RUN_FINISHED`.
   */
  cancel(runId: string, actor?: WorkflowActor): Promise<StoredWorkflowRun>;
  /**
   * Records `entry` and creates its pending decisions, in one transaction, while `owner`
   * holds the run.
   */
  suspend(
    runId: string,
    owner: string,
    entry: HistoryEntry,
    pending: readonly NewPending[],
    leaseMs: number,
  ): Promise<LeaseState>;
  /** The decisions taken so far on `decisionIds` of the run (undecided ones are absent). */
  decisions(runId: string, decisionIds: readonly string[]): Promise<Map<string, Decision>>;
  /** Undecided pending decisions of unfinished runs (of one run with `runId`), oldest first. */
  pending(filter?: { runId?: string }): Promise<StoredPending[]>;
  /**
   * Records one decision, once: `ALREADY_DECIDED` for a second one (whoever and wherever
   * it comes from), `NOT_PENDING` when the run has ended, `NOT_FOUND` for an unknown ref,
   * `INVALID_ARGUMENT` for a decision of the wrong kind (approval: approve or reject;
   * suspension: resume or reject). Wakes the run when it waits for it.
   */
  decide(ref: DecisionRef, decision: Decision, actor: WorkflowActor): Promise<StoredPending>;
  /** The run's audit trail, oldest first. */
  audit(runId: string): Promise<WorkflowAuditEntry[]>;
  /** Releases connections (a pool passed in by the caller stays open). */
  close(): Promise<void>;
}
