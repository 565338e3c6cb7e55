import type { Progress } from '../../task/index.ts';
import type {
  AgentInput,
  AgentRunOptions,
  Decision,
  Decisions,
  PendingCall,
  RunResult,
  RunState,
} from '../agent/index.ts';
import type { Model, ModelMessage, Usage } from '../model/index.ts';
import type { SessionError } from './errors.ts';
import type { EventLimits, NewRunEvent, RunEvent } from './run-event-types.ts';

export type * from './run-event-types.ts';

/**
 * Where a stored run stands:
 * `running` (a worker holds its lease), `ready` (runnable, no worker holds it: all its
 * pending calls are decided, or its worker let go), `suspended` (waiting for decisions),
 * `done`, `error` (the agent failed; the last checkpoint is kept) or `cancelled`.
 */
export type RunStatus = 'running' | 'ready' | 'suspended' | 'done' | 'error' | 'cancelled';

/**
 * A pending call as stored: what the agent reported, the SHA-256 (hex) of its single-use
 * token, and its decision once made. The token itself is never stored: it is present
 * only in the run that `finish` returns, the once it is handed out (decision 062).
 */
export interface StoredPending {
  call: PendingCall;
  tokenHash: string;
  token?: string;
  decision?: Decision;
}

/** A run as a store returns it, decoded and checked. */
export interface StoredRun {
  runId: string;
  threadId?: string;
  status: RunStatus;
  /** What the run started from. */
  input: AgentInput;
  /** The agent's state at the last checkpoint (absent until the first one). */
  state?: RunState;
  /** The final text, when done. */
  text?: string;
  /** Why the run failed, when `error`. */
  error?: string;
  /** The failed run's error code, when the error had one (`BUDGET_EXCEEDED`, `RATE_LIMITED`, …). */
  errorCode?: string;
  /** The pending calls of the current suspension, with their decisions (empty once done or cancelled). */
  pending: StoredPending[];
  /** The last `ctx.progress()` update a tool of the run reported while it was `running`. */
  progress?: StoredProgress;
  /** The worker holding the run and until when (epoch milliseconds), while `running`. */
  leaseOwner?: string;
  leaseExpiresAt?: number;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  /** See `SessionRun`'s `revision`; fino's stores set it, a store of your own may leave it out. */
  revision?: number;
  /**
   * In the run `claim` and `claimNext` return: the status they took it from (`running`
   * for a takeover from a worker whose lease expired). Absent elsewhere.
   */
  claimedFrom?: RunStatus;
}

/** A tool's progress update as a store keeps it: which call reported it, and when (epoch milliseconds). */
export interface StoredProgress extends Progress {
  toolCallId: string;
  toolName: string;
  at: number;
}

/** One line of a run's audit trail: who decided or cancelled what, when, with what note. */
export interface AuditEntry {
  /** ISO 8601 time. */
  at: string;
  action: 'approve' | 'reject' | 'resume' | 'cancel';
  toolCallId?: string;
  toolName?: string;
  /** Who did it, as the caller named them (`by`). */
  by?: string;
  /** The caller's note; for a rejection, the reason. */
  note?: string;
}

/** Who decides, and why: recorded in the audit trail. */
export interface Actor {
  by?: string;
  note?: string;
}

/** A pending call by its token, or by run and call id. */
export type PendingRef = string | { runId: string; toolCallId: string };

/**
 * How a leased run ends: finished, suspended with new pending calls, failed, or released
 * unfinished. A finished run of a thread appends its new messages to it, their token
 * estimates made for `model`.
 */
export type Outcome =
  | { status: 'done'; state: RunState; text: string; model?: Model }
  | { status: 'suspended'; state: RunState; pending: Array<{ call: PendingCall; token: string }> }
  | { status: 'error'; error: string; code?: string }
  | { status: 'ready' };

/** Where a run of a thread starts: the newest messages that fit, and the thread's latest summary. */
export interface ThreadStart {
  /** The messages put before the run's input, oldest first. */
  history: ModelMessage[];
  /** The thread position of `history[0]` (the thread's length when it is empty). */
  start: number;
  /** The latest summary of the messages before the ones kept (decision 149). */
  summary?: string;
  /** The agent the thread's last run finished with, when a handoff left another than the root active (decision 191). */
  agent?: string;
}

/** One stored message of a thread, with its position and the run that wrote it. */
export interface ThreadMessage {
  /** 0 for the thread's first message. */
  position: number;
  /** The run that added it (a forked thread keeps the runs of its source). */
  runId?: string;
  /** The token estimate stored with it (`estimateMessageTokens`). */
  tokens: number;
  /** The message as the run left it, tool results in full. */
  message: ModelMessage;
}

/** A page of a thread, as `thread()` returns it. */
export interface ThreadPage {
  threadId: string;
  /** How many messages the thread holds. */
  length: number;
  /** This page's messages, oldest first (the newest last). */
  messages: ThreadMessage[];
  /** Pass it as `before` for the page of older messages; absent on the first page. */
  before?: number;
  /** The run holding the thread (running, suspended, ready or failed), if any. */
  activeRunId?: string;
  /** The thread's latest summary, and how many leading messages it stands for. */
  summary?: { text: string; through: number };
  /** The usage of the thread's runs, summed (cost too, where the runs report it). */
  usage: Usage;
}

/** Filters of `list`. */
export interface ListFilter {
  status?: RunStatus;
  threadId?: string;
}

/**
 * Durable storage for session runs. Every method is atomic; the decisions and leases are
 * decided by the database, so several processes can share one store.
 * `memoryStore()`, `sqliteStore()` and `postgresStore()` implement it and pass one
 * conformance suite.
 */
export interface Store {
  /**
   * Creates a run leased to `owner` for `leaseMs`. `RUN_EXISTS` when the id is taken —
   * except by the run this call inserted itself (leased to `owner`, not driven yet), which
   * a retry after a commit whose outcome was unknown finds: `owner` names one creator alone.
   */
  create(run: {
    runId: string;
    threadId?: string;
    input: AgentInput;
    owner: string;
    leaseMs: number;
    /**
     * With a `threadId`, the tokens of the thread's newest messages to load: the run
     * takes the thread (`THREAD_BUSY` while another run holds it) and gets its window.
     */
    threadTokens?: number;
  }): Promise<ThreadStart | undefined>;
  /** The run, or `undefined`. `CORRUPT_RUN` when its row cannot be read. */
  get(runId: string): Promise<StoredRun | undefined>;
  /** Runs matching `filter`, oldest first; unreadable rows come back as `CORRUPT_RUN` errors. */
  list(filter?: ListFilter): Promise<Array<StoredRun | SessionError>>;
  /** Saves `state` while `owner` holds the run, and extends the lease; `false` when it lost the run. */
  checkpoint(runId: string, owner: string, state: RunState, leaseMs: number): Promise<boolean>;
  /**
   * Saves the run's last progress update while `owner` holds the run (the lease is not
   * extended); `false` when it lost the run. `finish` clears it.
   */
  progress(runId: string, owner: string, progress: StoredProgress): Promise<boolean>;
  /** Extends the lease while `owner` holds the run; `false` when it lost the run. */
  renew(runId: string, owner: string, leaseMs: number): Promise<boolean>;
  /** Ends `owner`'s lease with `outcome` and returns the run; `undefined` (nothing written) when it lost the run. */
  finish(runId: string, owner: string, outcome: Outcome): Promise<StoredRun | undefined>;
  /**
   * Records one decision on a pending call, once: `ALREADY_DECIDED` for a second one,
   * `NOT_PENDING` when the run no longer waits for it, `NOT_FOUND` for an unknown ref,
   * `CORRUPT_RUN` when the run cannot be read. When it was the run's last undecided
   * call the run becomes `ready` — or, with `claim`, is leased to that worker at once
   * (`claimed: true`). Returns the run as it is after the decision.
   */
  decide(
    ref: PendingRef,
    decision: Decision,
    actor: Actor,
    claim?: { owner: string; leaseMs: number },
  ): Promise<{ run: StoredRun; claimed: boolean }>;
  /**
   * Leases the run to `owner` when it is `ready`, `running` with an expired lease, or
   * (with `retryErrors`) `error`; `undefined` when it is not claimable.
   */
  claim(
    runId: string,
    owner: string,
    leaseMs: number,
    options?: { retryErrors?: boolean },
  ): Promise<StoredRun | undefined>;
  /**
   * Leases the oldest claimable run not in `exclude` to `owner`. Unreadable candidates
   * are left untouched and returned in `corrupt`.
   */
  claimNext(
    owner: string,
    leaseMs: number,
    exclude?: readonly string[],
  ): Promise<{ run?: StoredRun; corrupt: SessionError[] }>;
  /** Cancels a run that is not finished; `NOT_FOUND`, or `NOT_PENDING` when already done or cancelled. */
  cancel(runId: string, actor: Actor): Promise<void>;
  /** The run's audit trail, oldest first. */
  audit(runId: string): Promise<AuditEntry[]>;
  /** A page of a thread's messages before position `before` (newest last); `undefined` for an unknown thread. */
  thread(
    threadId: string,
    page: { before?: number; limit: number },
  ): Promise<ThreadPage | undefined>;
  /** Deletes a thread with its messages, summary and runs; `NOT_FOUND`, or `THREAD_BUSY` while one of its runs is running. */
  forgetThread(threadId: string): Promise<{ messages: number; runs: number }>;
  /** Copies the first `at` messages of a thread into the new thread `into`. */
  forkThread(
    threadId: string,
    at: number | undefined,
    into: string,
  ): Promise<{ threadId: string; length: number }>;
  /**
   * Appends `events` to the run's log while `owner` holds the run, in one transaction,
   * numbering them on from the log's last `seq`; `false` (nothing written) when it lost the
   * run. Past `limits` it writes one `events-truncated` marker and then only `finish`
   * events. A `json` that is not an event object is refused with `INVALID_ARGUMENT`.
   */
  appendEvents(
    runId: string,
    owner: string,
    events: readonly NewRunEvent[],
    limits: EventLimits,
  ): Promise<boolean>;
  /**
   * The run's status and up to `limit` (1 to 1000) events of its log after `seq` `after`,
   * in order; `undefined` for an unknown run. The status is read before the events, so
   * a run that is no longer running has all its events among them or after them.
   * `CORRUPT_RUN` when the first event it would return cannot be read (the events before
   * an unreadable one come back first).
   */
  readEvents(
    runId: string,
    after: number,
    limit: number,
  ): Promise<{ status: RunStatus; events: RunEvent[] } | undefined>;
  /** Releases connections (a pool passed in by the caller stays open). */
  close(): Promise<void>;
}

/** What a session needs of an agent: `generate` and `resume` of `fino:ai/agent`. */
export interface SessionAgent {
  generate(input: AgentInput, options?: AgentRunOptions): Promise<RunResult>;
  resume(state: RunState, decisions?: Decisions, options?: AgentRunOptions): Promise<RunResult>;
}

/**
 * A pending call as a session shows it: the agent's pending call and, only in the result
 * of the call that suspended the run (`start`, `approve`, `reject`, `resume`, `continue`,
 * `drain`), its single-use `token`. Stores keep only a hash of the token, so `get` and
 * `list` cannot show it: name the call by `{ runId, toolCallId }` there (decision 062).
 */
export interface SessionPendingCall extends PendingCall {
  token?: string;
}

interface RunViewBase {
  runId: string;
  threadId?: string;
  /** What the run started from (`start`'s input; a thread's earlier messages are not in it). */
  input: AgentInput;
  /** ISO 8601 times. */
  createdAt: string;
  updatedAt: string;
  /**
   * Grows with every change of any run of the store: orders runs by their last change
   * where `updatedAt` (a millisecond) ties. Absent for runs of a store that keeps none.
   */
  revision?: number;
  /** The agent's state at the last checkpoint. */
  state?: RunState;
  /** Who decided or cancelled what (filled by `get`). */
  audit?: AuditEntry[];
}

/**
 * The last progress a running tool of the run reported (`ctx.progress()`), with the call
 * that reported it and when (ISO 8601). Stored at most about once a second per run, so
 * it may lag the tool by that much.
 */
export interface RunProgress extends Progress {
  toolCallId: string;
  toolName: string;
  at: string;
}

/** A run as `start`, `approve`, `get`, … return it. */
export type SessionRun = RunViewBase &
  (
    | { status: 'done'; text: string }
    | { status: 'suspended'; pending: SessionPendingCall[] }
    | {
        status: 'running';
        worker: string;
        leaseExpiresAt: string;
        /** The last progress of a tool call still running (absent when none reported one). */
        progress?: RunProgress;
      }
    | { status: 'ready' }
    | {
        status: 'error';
        error: string;
        /**
         * The error's `code`, when it had one: `BUDGET_EXCEEDED` for a run that spent its
         * budget (continue it with `continue(runId, { retryErrors: true, budget })`).
         */
        code?: string;
      }
    | { status: 'cancelled' }
  );

/** A stored run that cannot be read, as `list` reports it; the row is left untouched. */
export interface CorruptRun {
  runId: string;
  status: 'corrupt';
  error: string;
}
