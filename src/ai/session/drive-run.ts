/**
 * The driver of a session: runs the agent on a run this worker holds the lease of,
 * stores every checkpoint before more side effects happen, keeps the lease alive, and
 * records how the run ended. It stops, writing nothing more, as soon as another worker
 * has taken the run over.
 */

import { newToken } from '../../internal/durable/index.ts';
import { storeSqlOf } from '../../internal/sql/index.ts';
import { throttledWriter } from '../../internal/throttled-writer.ts';
import { errorMessage } from '../../internal/thrown-value.ts';
import {
  type AgentRunOptions,
  type Budget,
  BudgetExceededError,
  type CheckpointReason,
  type Decisions,
  type RunResult,
} from '../agent/index.ts';
import type { Model } from '../model/index.ts';
import { SessionError } from './errors.ts';
import { notifyRunEvents } from './event-notifier.ts';
import type { EventLimits, ResumeReason } from './run-event-types.ts';
import { runRecorder } from './run-recorder.ts';
import { currentView, toView } from './run-view.ts';
import type {
  Outcome,
  SessionAgent,
  SessionRun,
  Store,
  StoredProgress,
  StoredRun,
} from './types.ts';

/** The shortest time between two progress writes of one run (decision 053). */
const PROGRESS_WRITE_INTERVAL_MS = 1000;

/**
 * The checkpoints the store already has the means to rebuild, so not written (each
 * write is a durable commit; decision 066). A run that crashes after one of them
 * resumes from the checkpoint before it, and ends up in the same place:
 * - `decisions`: the decisions are in the store's pending rows, and are applied again
 *   from there (the state still lists their calls as pending);
 * - `turn-closed`: closing a turn whose calls all have results is deterministic, and
 *   `resume` does it again from the last `tool-outcome` checkpoint;
 * - `final`: `finish` stores the same state, with the run's outcome.
 * Nor does skipping them let a worker that lost its lease run a tool: `decisions` comes
 * right after the claim that leased the run (which checked and extended the lease as a
 * checkpoint does), and after `turn-closed` and `final` no tool runs before the next
 * written checkpoint (`model-turn`) or `finish`, which detect a lost lease.
 */
const DERIVABLE: ReadonlySet<CheckpointReason> = new Set(['decisions', 'turn-closed', 'final']);

/** This worker as the driver needs it: its store, its name in leases, and how long a lease lasts. */
export interface RunWorker {
  store: Store;
  owner: string;
  leaseMs: number;
  /** The agent's model: a thread's token estimates are made for it. */
  model?: Model;
  /** With the session option `events`: how much each run's log of events holds. */
  events?: EventLimits;
}

/**
 * Drives the run `runId` that `worker` holds: `invoke` starts or resumes the agent with
 * the run options given; returns the run as it ended (or as another worker left it).
 * Aborting `signal` releases the run as `ready` and rethrows. With the session option
 * `events`, the run's events are recorded (`resumed`: why this drive is not its first).
 */
export async function driveHeldRun(
  worker: RunWorker,
  runId: string,
  invoke: (runOptions: AgentRunOptions) => Promise<RunResult>,
  signal?: AbortSignal,
  resumed?: ResumeReason,
): Promise<SessionRun> {
  const { store, owner, leaseMs } = worker;
  const recorder = worker.events && runRecorder(store, runId, owner, worker.events, resumed);
  const controller = new AbortController();
  let lost = false;
  const loseLease = () => {
    lost = true;
    controller.abort(
      new SessionError('LEASE_LOST', `run "${runId}" was taken over by another worker`, runId),
    );
  };
  const forwardAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });
  if (signal?.aborted) forwardAbort();
  const heartbeat = setInterval(() => {
    store.renew(runId, owner, leaseMs).then(
      (held) => held || loseLease(),
      () => {}, // a failed renewal is retried at the next beat; the checkpoint tells for sure
    );
  }, leaseMs / 3);
  heartbeat.unref();
  const progress = throttledWriter(
    (update: StoredProgress) => store.progress(runId, owner, update),
    PROGRESS_WRITE_INTERVAL_MS,
  );
  // fino's SQL stores serialise a checkpoint's state before they first await, and keep
  // no reference to it: they are given the agent's live state, not a copy (decision 089).
  const checkpointCopy = storeSqlOf(store) === undefined;
  let outcome: Outcome;
  try {
    const result = await settled(
      recorder?.flush,
      invoke({
        runId,
        ...(recorder && { onEvent: recorder.record }),
        signal: controller.signal,
        checkpointCopy,
        onProgress: (event) =>
          progress.report({
            toolCallId: event.toolCallId,
            toolName: event.toolName,
            ...event.progress,
            at: Date.now(),
          }),
        onCheckpoint: async (state, { reason }) => {
          if (DERIVABLE.has(reason)) return;
          await recorder?.flush(); // the events that led to the checkpoint go in before it
          if (!(await store.checkpoint(runId, owner, state, leaseMs))) loseLease();
          if (lost) throw controller.signal.reason;
        },
      }),
    );
    outcome =
      result.status === 'done'
        ? { status: 'done', state: result.state, text: result.text, model: worker.model }
        : {
            status: 'suspended',
            state: result.state,
            pending: result.pending.map((call) => ({ call, token: newToken() })),
          };
  } catch (error) {
    if (lost) return currentView(store, runId);
    if (signal?.aborted) {
      await store.finish(runId, owner, { status: 'ready' });
      throw error;
    }
    if (error instanceof SessionError && error.code === 'STORE_UNAVAILABLE') {
      // The database failed, not the run: it stays claimable from its last checkpoint —
      // released now if the database answers, else once this worker's lease expires.
      await store.finish(runId, owner, { status: 'ready' }).catch(() => {});
      throw error;
    }
    outcome = failed(runId, error);
  } finally {
    clearInterval(heartbeat);
    progress.stop(); // `finish` clears the stored progress; a late write finds the run no longer running
    recorder?.stop(); // flushed as the agent ended: its events are in before the run's end
    signal?.removeEventListener('abort', forwardAbort);
  }
  const finished = await store.finish(runId, owner, outcome);
  if (recorder) notifyRunEvents(store, runId); // its followers here see it ended
  return finished ? toView(finished) : currentView(store, runId); // not finished here: another worker took it
}

/** `run`, once `after` (the last write of its events) has settled, whichever way `run` ends. */
async function settled<T>(after: (() => Promise<void>) | undefined, run: Promise<T>): Promise<T> {
  try {
    return await run;
  } finally {
    await after?.();
  }
}

/**
 * How a run that threw ends: the error's message, and its `code` when it has a string one.
 * A run that spent its budget says how to finish it in a session (not the agent's resume).
 */
function failed(runId: string, error: unknown): Outcome {
  if (error instanceof BudgetExceededError) {
    return {
      status: 'error',
      error: `run "${runId}" stopped: ${error.overspent}; finish it with a higher budget: continue("${runId}", { retryErrors: true, budget: { ${error.limit}: … } })`,
      code: error.code,
    };
  }
  let code: unknown;
  try {
    code = (error as { code?: unknown } | null)?.code;
  } catch {
    // a code that cannot be read is no code
  }
  return {
    status: 'error',
    error: errorMessage(error),
    ...(typeof code === 'string' && code !== '' && { code: code.slice(0, 100) }),
  };
}

/**
 * Drives a run `worker` has just claimed: resumes it from its last checkpoint with the
 * decisions recorded since, or starts it from its input when it has none yet (`resumed`:
 * why, for its log of events). `budget`,
 * when given, is the run's budget over the agent's (to finish a run that spent its own).
 */
export function continueClaimedRun(
  worker: RunWorker,
  agent: SessionAgent,
  run: StoredRun,
  resumed: ResumeReason,
  signal?: AbortSignal,
  budget?: Budget,
): Promise<SessionRun> {
  return driveHeldRun(
    worker,
    run.runId,
    (driverOptions) => {
      const runOptions = budget === undefined ? driverOptions : { ...driverOptions, budget };
      return run.state
        ? agent.resume(run.state, decisionsToApply(run), runOptions)
        : agent.generate(run.input, runOptions);
    },
    signal,
    resumed,
  );
}

/**
 * The recorded decisions the state still waits for: a decision whose call is no longer
 * in the state's pending list was applied before a later checkpoint, and is not applied twice.
 */
function decisionsToApply(run: StoredRun): Decisions {
  const waiting = new Set(run.state?.turn?.pending.map((p) => p.toolCallId) ?? []);
  const decisions: Decisions = {};
  for (const p of run.pending) {
    if (p.decision && waiting.has(p.call.toolCallId)) decisions[p.call.toolCallId] = p.decision;
  }
  return decisions;
}
