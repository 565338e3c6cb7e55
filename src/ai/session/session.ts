import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { describeValue } from '../../internal/describe-value.ts';
import { checkDuration } from '../../internal/duration.ts';
import { sortableId } from '../../internal/sortable-id.ts';
import {
  type AgentInput,
  type AgentRunOptions,
  type Budget,
  checkBudget,
  type Decision,
} from '../agent/index.ts';
import { RUN_STATUSES } from './codec.ts';
import { continueClaimedRun, driveHeldRun, type RunWorker } from './drive-run.ts';
import { SessionError } from './errors.ts';
import { corruptView, currentView, toView } from './run-view.ts';
import {
  checkCount,
  checkThreadId,
  type ThreadOptions,
  threadPage,
  threadSettings,
  whenThreadFree,
} from './thread-options.ts';
import type {
  Actor,
  CorruptRun,
  ListFilter,
  PendingRef,
  SessionAgent,
  SessionRun,
  Store,
  StoredRun,
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
  /** This worker's name in leases (default `host:pid:random`). */
  workerId?: string;
  /**
   * How runs continue threads: what a start on a busy thread does (`busy`: `'reject'`,
   * the default, or `'wait'`), and how many tokens of a thread's newest messages a
   * start loads (`maxTokens`). See docs/session.md "Threads".
   */
  threads?: ThreadOptions;
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
   * Deletes a thread: its messages, its summary, and its runs with their pending calls
   * and audit trail. `NOT_FOUND` for an unknown thread; `THREAD_BUSY` while one of its
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

const DEFAULT_LEASE_MS = 30_000;
/** A shorter lease would expire between two heartbeats of a busy event loop. */
const MIN_LEASE_MS = 10;

function checkRunId(runId: unknown, method: string): asserts runId is string {
  if (typeof runId !== 'string' || runId === '') {
    throw new SessionError(
      'INVALID_ARGUMENT',
      `${method}(runId): expected a non-empty string, received ${describeValue(runId)}`,
    );
  }
}

/**
 * Durable, exactly-once runs of an agent: every checkpoint of the run (each model turn,
 * each tool result) is stored before more side effects happen; a suspended run waits in
 * the store, with one single-use token per pending call, for decisions that may come
 * days later from another process; approving continues it there. Runs held by a worker
 * that died are taken over when its lease expires, and completed tool calls are never
 * run again.
 *
 * @example
 * ```ts
 * import { agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { tool } from 'fino:ai/tool';
 * import { memoryStore, session } from 'fino:ai/session';
 * import { v } from 'fino:validate';
 *
 * const remove = tool({
 *   name: 'remove_file',
 *   description: 'Delete a file.',
 *   parameters: v.object({ path: v.string() }),
 *   requiresApproval: true,
 *   execute: async ({ path }: { path: string }) => `deleted ${path}`,
 * });
 * const model = scriptedModel([
 *   { toolCalls: [{ name: 'remove_file', args: { path: 'old.log' } }] },
 *   'Deleted old.log.',
 * ]);
 * const runs = session({ store: memoryStore(), agent: agent({ model, tools: [remove] }) });
 *
 * const run = await runs.start('Delete old.log');
 * if (run.status === 'suspended') {
 *   const done = await runs.approve(run.pending[0].token!, { by: 'ana', note: 'fine' });
 *   console.log(done.status, done.status === 'done' && done.text); // done Deleted old.log.
 * }
 * ```
 */
export function session(options: SessionOptions): Session {
  const { store, agent } = options ?? ({} as SessionOptions);
  if (!store || typeof store.claim !== 'function') {
    throw new TypeError(
      `session({ store, agent }): store: expected a Store (memoryStore(), sqliteStore(), postgresStore()), received ${describeValue(store)}`,
    );
  }
  if (
    agent !== undefined &&
    (agent === null || typeof agent.generate !== 'function' || typeof agent.resume !== 'function')
  ) {
    throw new TypeError(
      `session({ store, agent }): agent: expected an agent with generate() and resume() (from fino/ai/agent), received ${describeValue(agent)}`,
    );
  }
  /** The session's agent; `INVALID_ARGUMENT` naming `action` when it has none. */
  const requireAgent = (action: string): SessionAgent => {
    if (!agent) {
      throw new SessionError(
        'INVALID_ARGUMENT',
        `${action}: this session has no agent; pass session({ store, agent }) to drive runs`,
      );
    }
    return agent;
  };
  // The heartbeat beats every third of the lease: both must be delays a Node.js timer honours.
  const leaseMs = checkDuration('session: leaseMs', options.leaseMs ?? DEFAULT_LEASE_MS);
  if (leaseMs < MIN_LEASE_MS) {
    throw new RangeError(
      `session: leaseMs: expected a number of milliseconds ≥ ${MIN_LEASE_MS}, received ${leaseMs}`,
    );
  }
  const owner =
    options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const threads = threadSettings(options.threads, agent);
  const worker: RunWorker = { store, owner, leaseMs, model: threads.model };
  const continueClaimed = (run: StoredRun, signal?: AbortSignal) =>
    continueClaimedRun(worker, requireAgent('continue'), run, signal);

  async function decide(
    ref: PendingRef,
    decision: Decision,
    options: DecideOptions = {},
  ): Promise<SessionRun> {
    const claim = agent && !options.defer ? { owner, leaseMs } : undefined;
    const { run, claimed } = await store.decide(
      ref,
      decision,
      { by: options.by, note: options.note },
      claim,
    );
    return claimed ? continueClaimed(run, options.signal) : toView(run);
  }

  return {
    async start(input, startOptions = {}) {
      if (typeof input !== 'string' && !Array.isArray(input)) {
        throw new SessionError(
          'INVALID_ARGUMENT',
          `start(input): expected a string or an array of messages, received ${describeValue(input)}`,
        );
      }
      const runId = startOptions.runId ?? sortableId('run_');
      if (typeof runId !== 'string' || runId === '') {
        throw new SessionError(
          'INVALID_ARGUMENT',
          `start: runId: expected a non-empty string, received ${describeValue(runId)}`,
        );
      }
      const { threadId } = startOptions;
      if (threadId !== undefined) checkThreadId(threadId, 'start: threadId');
      const runner = requireAgent('start');
      const thread = await whenThreadFree(
        threads,
        () =>
          store.create({ runId, threadId, input, owner, leaseMs, threadTokens: threads.maxTokens }),
        startOptions.signal,
      );
      // The thread's latest summary goes in as the agent's `summary` (decision 149).
      const fromThread: AgentRunOptions | undefined = thread && {
        history: thread.history,
        ...(thread.summary !== undefined && { summary: thread.summary }),
      };
      return driveHeldRun(
        worker,
        runId,
        (runOptions) => runner.generate(input, { ...runOptions, ...fromThread }),
        startOptions.signal,
      );
    },

    approve: (ref, decideOptions) => decide(ref, { approve: true }, decideOptions),

    reject(ref, reason, decideOptions) {
      if (typeof reason !== 'string' || reason.trim() === '') {
        return Promise.reject(
          new SessionError(
            'INVALID_ARGUMENT',
            `reject(ref, reason): reason: expected a non-empty string (the model reads it), received ${describeValue(reason)}`,
          ),
        );
      }
      return decide(ref, { reject: reason }, decideOptions);
    },

    resume(ref, value, decideOptions) {
      if (value === undefined) {
        return Promise.reject(
          new SessionError(
            'INVALID_ARGUMENT',
            'resume(ref, value): a value is required (JSON has no undefined; send null for "no answer")',
          ),
        );
      }
      return decide(ref, { resume: value }, decideOptions);
    },

    async get(runId) {
      checkRunId(runId, 'get');
      const run = await store.get(runId);
      return run && toView(run, await store.audit(runId));
    },

    async list(filter = {}) {
      if (filter === null || typeof filter !== 'object') {
        throw new SessionError('INVALID_ARGUMENT', 'list(filter): expected { status?, threadId? }');
      }
      if (filter.status !== undefined && !RUN_STATUSES.includes(filter.status)) {
        throw new SessionError(
          'INVALID_ARGUMENT',
          `list: status: expected one of ${RUN_STATUSES.join(', ')}, received ${describeValue(filter.status)}`,
        );
      }
      if (filter.threadId !== undefined && typeof filter.threadId !== 'string') {
        throw new SessionError(
          'INVALID_ARGUMENT',
          `list: threadId: expected a string, received ${describeValue(filter.threadId)}`,
        );
      }
      const runs = await store.list(filter);
      return runs.map((run) => (run instanceof SessionError ? corruptView(run) : toView(run)));
    },

    async cancel(runId, actor = {}) {
      checkRunId(runId, 'cancel');
      await store.cancel(runId, actor);
      return currentView(store, runId);
    },

    async continue(runId, continueOptions = {}) {
      checkRunId(runId, 'continue');
      requireAgent('continue');
      try {
        checkBudget(continueOptions.budget, 'continue: budget');
      } catch (error) {
        throw new SessionError('INVALID_ARGUMENT', (error as Error).message);
      }
      const claimed = await store.claim(runId, owner, leaseMs, {
        retryErrors: continueOptions.retryErrors,
      });
      if (!claimed) return currentView(store, runId);
      return continueClaimedRun(
        worker,
        requireAgent('continue'),
        claimed,
        continueOptions.signal,
        continueOptions.budget,
      );
    },

    async drain(drainOptions = {}) {
      requireAgent('drain');
      const limit = drainOptions.limit ?? Number.POSITIVE_INFINITY;
      const report: DrainReport = { runs: [], corrupt: [] };
      const skip: string[] = [];
      while (report.runs.length < limit && !drainOptions.signal?.aborted) {
        const { run, corrupt } = await store.claimNext(owner, leaseMs, skip);
        for (const error of corrupt) {
          skip.push(error.runId ?? '');
          report.corrupt.push(corruptView(error));
        }
        if (!run) break;
        report.runs.push(await continueClaimed(run, drainOptions.signal));
      }
      return report;
    },

    async thread(threadId, pageOptions = {}) {
      checkThreadId(threadId, 'thread: threadId');
      return store.thread(threadId, threadPage(pageOptions));
    },

    async forget(threadId) {
      checkThreadId(threadId, 'forget: threadId');
      return store.forgetThread(threadId);
    },

    async fork(threadId, forkOptions = {}) {
      checkThreadId(threadId, 'fork: threadId');
      if (forkOptions === null || typeof forkOptions !== 'object') {
        throw new SessionError(
          'INVALID_ARGUMENT',
          `fork(threadId, options): expected { at?, threadId? }, received ${describeValue(forkOptions)}`,
        );
      }
      const at = checkCount(forkOptions.at, 'fork: at', 0);
      const into =
        forkOptions.threadId === undefined ? sortableId('thread_') : forkOptions.threadId;
      checkThreadId(into, 'fork: options.threadId');
      return store.forkThread(threadId, at, into);
    },
  };
}
