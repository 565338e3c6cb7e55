/**
 * What a session is to its callers: the {@link Session} interface and the options of
 * its methods. Built by `session.ts`.
 */
import type { AgentInput, Budget } from '../agent/index.ts';
import type { EventsOption } from './events-option.ts';
import type { RunEvent } from './run-event-types.ts';
import type { ThreadOptions } from './thread-options.ts';
import type {
  Actor,
  CorruptRun,
  ListFilter,
  PendingRef,
  SessionAgent,
  SessionRun,
  Store,
  ThreadPage,
} from './types.ts';

/** Options of {@link session}. */
export interface SessionOptions {
  store: Store;
  /**
   * The agent that drives the runs. Without one, a session can inspect runs and record
   * decisions (leaving decided runs `ready` for a worker), but not start or continue them.
   */
  agent?: SessionAgent;
  /**
   * How long this worker's claim on a run lasts without renewal, in milliseconds
   * (default 30 000). It is renewed at every checkpoint and every third of it while the
   * run is active; when its worker dies, another one takes the run over once it expires.
   * At least 10 and at most 2^31 − 1 (about 24.8 days, the longest a Node.js timer
   * waits); anything else is a `RangeError` at construction.
   */
  leaseMs?: number;
  /**
   * This worker's name in leases (default `host:pid:random`); a run `start` creates is
   * leased to it with `#` and a suffix of that start's own.
   */
  workerId?: string;
  /**
   * How runs continue threads: what a start on a busy thread does (`busy`: `'reject'`,
   * the default, or `'wait'`), and how many tokens of a thread's newest messages a
   * start loads (`maxTokens`). See docs/session.md "Threads".
   */
  threads?: ThreadOptions;
  /**
   * Record the events of every run this session drives (default off): `true`, or the
   * limits of one run's log — `maxEvents` (default 10 000) and `maxBytes` of event JSON
   * (default 4 MiB); past them the log gets one `events-truncated` marker and then only
   * `finish` events. Read them with {@link Session.events}. See docs/session.md "Run events".
   */
  events?: EventsOption;
}

/** Options of `events`. */
export interface EventsOptions {
  /** Start after this `seq` (default 0: from the first event). */
  after?: number;
  /**
   * Go on with new events until the run is no longer `running` or `ready` and every
   * event is read (default `true`); `false` reads the stored ones and ends.
   */
  follow?: boolean;
  /** Aborting it ends the iteration (without an error). */
  signal?: AbortSignal;
  /**
   * How often the store is asked for new events while following, in milliseconds
   * (default 250, from 10 to 60 000); a run this process drives wakes its followers at
   * once instead.
   */
  pollMs?: number;
}

/** Options of `start`. */
export interface StartOptions {
  /** The run's id (default `run_<uuid>`); `RUN_EXISTS` when taken. */
  runId?: string;
  /**
   * The conversation the run continues: the thread's newest messages (those that fit
   * the session's `threads.maxTokens`) come before the input, with its latest summary,
   * and when the run is done its new messages are appended to the thread. While the run
   * is unfinished the thread is busy (`THREAD_BUSY`, or a wait: `threads.busy`).
   * Filter `list` by it. At most 256 characters, no control characters.
   */
  threadId?: string;
  /** Aborting it stops the run; it stays resumable (`ready`) from its last checkpoint. */
  signal?: AbortSignal;
  /**
   * Called once the run is stored (its thread claimed), before the agent begins: from
   * then on `get`, `events` and `cancel` find it, so a caller that does not await
   * `start` (a chat handler streaming the run's events) knows when to read them. What
   * it throws is ignored.
   */
  onStored?: (runId: string) => void;
}

/** Options of `approve`, `reject` and `resume`. */
export interface DecideOptions extends Actor {
  /**
   * Record the decision only, and leave the run `ready` for a worker's `drain()` instead
   * of continuing it in this call (default false; always so for a session without an agent).
   */
  defer?: boolean;
  signal?: AbortSignal;
}

/** Options of `continue`. */
export interface ContinueOptions {
  signal?: AbortSignal;
  /** Also claim a run that ended `error`, and resume it from its last checkpoint. */
  retryErrors?: boolean;
  /** The run's budget over the agent's (`{ maxCost?, maxTokens? }`), checked by the agent. */
  budget?: Budget;
}

/** What `drain` did: the runs it continued, and the unreadable ones it left alone. */
export interface DrainReport {
  runs: SessionRun[];
  corrupt: CorruptRun[];
}

/** Durable runs of one agent over one store. See {@link session}. */
export interface Session {
  /** Starts a run and drives it until it is done, suspended or failed. */
  start(input: AgentInput, options?: StartOptions): Promise<SessionRun>;
  /** Approves a pending call (by token, or by run and call id); continues the run once all its calls are decided. */
  approve(ref: PendingRef, options?: DecideOptions): Promise<SessionRun>;
  /** Rejects a pending call with a reason the model sees; continues like `approve`. */
  reject(ref: PendingRef, reason: string, options?: DecideOptions): Promise<SessionRun>;
  /** Answers a suspended call with a value (the tool runs again with `ctx.resumeValue`); continues like `approve`. */
  resume(ref: PendingRef, value: unknown, options?: DecideOptions): Promise<SessionRun>;
  /** The run with its audit trail, or `undefined`; `CORRUPT_RUN` when its row cannot be read. */
  get(runId: string): Promise<SessionRun | undefined>;
  /** Runs, oldest first; unreadable ones are reported as `corrupt` and left untouched. */
  list(filter?: ListFilter): Promise<Array<SessionRun | CorruptRun>>;
  /** Cancels an unfinished run: its pending calls can no longer be decided. */
  cancel(runId: string, options?: Actor): Promise<SessionRun>;
  /**
   * Continues one run that no worker holds: `ready`, or `running` with an expired lease
   * (its worker died), or `error` with `retryErrors`. Returns the run as it is when it
   * cannot be claimed. `budget` goes over the agent's for this continuation: a run that
   * ended `error` with code `BUDGET_EXCEEDED` finishes with
   * `continue(runId, { retryErrors: true, budget: { maxCost: 5 } })`.
   */
  continue(runId: string, options?: ContinueOptions): Promise<SessionRun>;
  /**
   * The run's recorded events (`session({ events: true })`) after `after`, in order, then,
   * with `follow` (the default), the new ones as they are written — by a worker in this
   * process or in another — until the run is no longer `running` or `ready` and every
   * event is read. `NOT_FOUND` for an unknown run; `CORRUPT_RUN` for an unreadable event
   * (its message names the `after` that reads on past it).
   *
   * @example
   * ```ts
   * import { agent } from 'fino:ai/agent';
   * import { scriptedModel } from 'fino:ai/model';
   * import { memoryStore, session } from 'fino:ai/session';
   *
   * const runs = session({
   *   store: memoryStore(),
   *   agent: agent({ model: scriptedModel(['Hello!']) }),
   *   events: true,
   * });
   * const run = await runs.start('Hi');
   * for await (const { seq, event } of runs.events(run.runId)) console.log(seq, event.type);
   * // 1 step-start, 2 text-delta, 3 step-finish, 4 finish
   * ```
   */
  events(runId: string, options?: EventsOptions): AsyncIterable<RunEvent>;
  /** Claims and continues runnable runs one after another until none is left (or `limit`). */
  drain(options?: { signal?: AbortSignal; limit?: number }): Promise<DrainReport>;
  /**
   * A page of a thread's messages, newest last: the `limit` (default 100, at most 1000)
   * messages before position `before` (default: the end), with their token estimates,
   * the thread's latest summary and the usage of its runs; `undefined` for an unknown
   * thread. Messages of a run are added when it is done.
   *
   * @example
   * ```ts
   * import { agent } from 'fino:ai/agent';
   * import { scriptedModel } from 'fino:ai/model';
   * import { memoryStore, session } from 'fino:ai/session';
   *
   * const model = scriptedModel(['Noted: o-17.', 'It ships Friday.']);
   * const runs = session({ store: memoryStore(), agent: agent({ model }) });
   * await runs.start('My order is o-17.', { threadId: 'customer-9' });
   * await runs.start('When does it ship?', { threadId: 'customer-9' });
   * const page = await runs.thread('customer-9', { limit: 10 });
   * console.log(page?.messages.map((m) => m.message.role)); // [ 'user', 'assistant', 'user', 'assistant' ]
   * const copy = await runs.fork('customer-9', { at: 2 }); // the first question and answer
   * console.log(copy.length); // 2
   * console.log(await runs.forget('customer-9')); // { messages: 4, runs: 2 }
   * ```
   */
  thread(
    threadId: string,
    options?: { before?: number; limit?: number },
  ): Promise<ThreadPage | undefined>;
  /**
   * Deletes a thread: its messages, its summary, and its runs with their pending calls,
   * audit trail and recorded events. `NOT_FOUND` for an unknown thread; `THREAD_BUSY` while one of its
   * runs is running (cancel it first).
   */
  forget(threadId: string): Promise<{ messages: number; runs: number }>;
  /**
   * Copies the thread's first `at` messages (default: all) into a new thread (`threadId`,
   * default a generated `thread_…` id), with its summary when that covers no more than
   * them; runs are not copied. `INVALID_ARGUMENT` for an `at` past the end or between
   * tool calls and their results, `THREAD_EXISTS` for a taken id.
   */
  fork(
    threadId: string,
    options?: { at?: number; threadId?: string },
  ): Promise<{ threadId: string; length: number }>;
}
