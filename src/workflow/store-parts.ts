/**
 * The parts of the `WorkflowStore` interface beyond runs, histories, signals and
 * decisions: one interface per feature, which `WorkflowStore` extends. The SQL store
 * implements each in a file of its own under `sql/`.
 */
import type { NewSchedule, StoredSchedule } from './schedule-types.ts';
import type {
  HistoryEntry,
  LeaseState,
  StoredError,
  StoredWorkflowRun,
  WorkflowActor,
} from './types.ts';

/** Streams out of a run (decision 227). */
export interface StreamStore {
  /** How many chunks the run's stream `name` holds, and whether it was closed. */
  streamLength(runId: string, name: string): Promise<{ length: number; closed: boolean }>;
  /**
   * Writes the chunk at `offset` of the run's stream `name` (JSON text) while `owner` holds
   * the run, extending the lease; a chunk already at `offset` is kept (a replay writes it once).
   */
  appendStream(
    runId: string,
    owner: string,
    chunk: { name: string; offset: number; value: string },
    leaseMs: number,
  ): Promise<LeaseState>;
  /** Closes the run's stream `name` while `owner` holds the run: its readers end after its last chunk. */
  closeStream(runId: string, owner: string, name: string, leaseMs: number): Promise<LeaseState>;
  /**
   * At most `limit` chunks of the run's stream `name` from `from` on, without a gap;
   * `ended` when they are its last and it is closed or the run has ended. `NOT_FOUND`
   * for an unknown run.
   */
  streamChunks(
    runId: string,
    name: string,
    from: number,
    limit: number,
  ): Promise<{ chunks: StoredStreamChunk[]; ended: boolean }>;
  /**
   * Calls `wake` when this store object writes to or closes the run's stream `name` (a
   * reader in the writer's process need not wait for its next poll); returns the unsubscribe.
   */
  watchStream(runId: string, name: string, wake: () => void): () => void;
}

/** Retrying and forking runs (decisions 233–235). */
export interface RepairStore {
  /**
   * Makes a run that ended `error` runnable again, in one transaction, audited
   * (`retry`): the history entries holding a failure are dropped (they run again), the
   * completed ones kept. `NOT_FOUND`, or `RUN_NOT_FAILED` for a run not in `error`.
   */
  retry(runId: string, actor?: WorkflowActor): Promise<StoredWorkflowRun>;
  /**
   * Creates run `fork.runId` of the same workflow holding a copy of the history of
   * `runId` before the entry `fork.fromStep`, in one transaction, audited (`fork`, on
   * both runs). With a `runId` already forked from the same run and step, returns that
   * run (`created: false`). `NOT_FOUND` for an unknown run, `INVALID_ARGUMENT` for a
   * step the history does not hold or an entry before it still waiting, `KEY_CONFLICT`
   * for a run id taken otherwise.
   */
  fork(
    runId: string,
    fork: { runId: string; fromStep: string; input?: string },
    actor?: WorkflowActor,
  ): Promise<{ run: StoredWorkflowRun; created: boolean }>;
}

/** Continue-as-new chains (decisions 229–231). */
export interface ChainStore {
  /**
   * Ends the run `owner` holds as `continued` and creates its successor, in one
   * transaction: the successor inherits the workflow, parent, declared signal names and
   * any cancellation, and the run's unconsumed signals move to it; the history of the run
   * `keepHistories` generations back is deleted. `false` (nothing written) when `owner`
   * no longer holds the run.
   */
  continueAsNew(
    runId: string,
    owner: string,
    successor: { runId: string; input?: string },
    keepHistories: number,
  ): Promise<boolean>;
  /** The run itself, or, for a run that continued as new, the last run of its chain; `undefined` for an unknown id. */
  latestInChain(runId: string): Promise<StoredWorkflowRun | undefined>;
}

/** Queries and updates sent to runs (decisions 224–226). */
export interface RequestStore {
  /**
   * Queues a query or an update for the run and wakes it when it waits with handlers; an
   * update whose id the run already holds is returned as it stands (idempotent).
   * `NOT_FOUND`, `RUN_FINISHED`, `UNKNOWN_QUERY`/`UNKNOWN_UPDATE` when the waiting run
   * registered no handler, `UPDATE_QUEUE_FULL` at `maxQueued` unanswered requests.
   */
  sendRequest(request: NewRunRequest, maxQueued: number): Promise<RunRequest>;
  /** The run's unanswered requests, oldest first. */
  openRequests(runId: string): Promise<RunRequest[]>;
  /**
   * Answers a request while `owner` holds the run, with `entry` (an applied update)
   * recorded in the same transaction: an update is applied once.
   */
  answerRequest(
    runId: string,
    owner: string,
    answer: RequestAnswer,
    entry: HistoryEntry | undefined,
    leaseMs: number,
  ): Promise<LeaseState>;
  /** A request as it stands (`undefined` once a read query answer was dropped). */
  getRequest(runId: string, requestId: string): Promise<RunRequest | undefined>;
  /** Deletes a query's row once its caller read the answer (or gave up). */
  dropRequest(runId: string, requestId: string): Promise<void>;
}

/** Schedules that start runs (decisions 221–223). */
export interface ScheduleStore {
  /**
   * Creates a schedule; an id already used returns that schedule (`created: false`). Its
   * audit trail is `audit('schedule:<id>')`.
   */
  createSchedule(
    schedule: NewSchedule,
    actor?: WorkflowActor,
  ): Promise<{ schedule: StoredSchedule; created: boolean }>;
  getSchedule(scheduleId: string): Promise<StoredSchedule | undefined>;
  /** Schedules by id (of one workflow with `workflowId`), at most `limit` (default 1 000) after the id `after`. */
  listSchedules(filter?: {
    workflowId?: string;
    limit?: number;
    after?: string;
  }): Promise<StoredSchedule[]>;
  /** Pauses or resumes a schedule (a resumed one ticks next after now); `NOT_FOUND`. */
  pauseSchedule(
    scheduleId: string,
    paused: boolean,
    actor?: WorkflowActor,
  ): Promise<StoredSchedule>;
  /** Deletes a schedule (the runs it started stay); `NOT_FOUND`. */
  deleteSchedule(scheduleId: string, actor?: WorkflowActor): Promise<void>;
  /**
   * Starts the due ticks of due schedules of `workflowIds` at `now`, a bounded batch per
   * call, each tick's run keyed `schedule:<id>:<tick ISO>` in the same transaction that
   * advances its schedule: exactly one run per tick. `more` when due ticks are left.
   */
  fireSchedules(
    workflowIds: readonly string[],
    now: number,
  ): Promise<{ started: number; more: boolean; corrupt: string[] }>;
  /** When the next unpaused schedule of `workflowIds` falls due (epoch ms), if any. */
  nextScheduleDue(workflowIds: readonly string[]): Promise<number | undefined>;
}

/** Wake-ups and worker identities (decisions 238–241). */
export interface WakeupStore {
  /**
   * Calls `onWake` when a run of one of `workflowIds` may have fallen due (started,
   * signalled, decided, cancelled, released, a timer set), until `close()`: PostgreSQL's
   * `LISTEN/NOTIFY` across processes, SQLite's and memory's within this process. Wake-ups
   * can be lost (an outage, another process on SQLite): a worker still polls.
   */
  wakeups(workflowIds: readonly string[], onWake: () => void): { close(): Promise<void> };
  /**
   * Takes worker `identity` for `owner` (`<identity>/<suffix>`) and releases the runs an
   * earlier process of that identity still leases, so they are claimed again at once.
   * `IDENTITY_IN_USE` while a live process holds it. `onLost` hears that a hold ended
   * without `release()` (PostgreSQL: its connection broke): take it again.
   */
  claimIdentity(
    identity: string,
    owner: string,
    onLost: () => void,
  ): Promise<{ release(): Promise<void> }>;
}

/** A chunk of a stream out of a run, as a store keeps it. */
export interface StoredStreamChunk {
  offset: number;
  /** The value as JSON text. */
  value: string;
}

/** A query or an update sent to a run. */
export interface NewRunRequest {
  runId: string;
  /** The update id (the caller's or generated), or a query's generated id. */
  requestId: string;
  kind: 'query' | 'update';
  name: string;
  /** The arguments as JSON text (absent for `undefined`). */
  args?: string;
}

/** A request as the store keeps it: open until a worker answers it. */
export interface RunRequest extends NewRunRequest {
  state: 'open' | 'done' | 'failed';
  /** The result as JSON text, when done. */
  result?: string;
  /** Why it failed (refused by the validator, threw, unknown name). */
  error?: StoredError;
  createdAt: number;
}

/** A worker's answer to a request. */
export interface RequestAnswer {
  requestId: string;
  state: 'done' | 'failed';
  result?: string;
  error?: StoredError;
}
