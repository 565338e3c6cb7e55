/**
 * A session's runs: starting one (on its thread, when it has one), reading and listing
 * them, cancelling one, and continuing runs no worker holds (`continue`, `drain`).
 */
import { randomBytes } from 'node:crypto';
import { describeValue } from '../../internal/describe-value.ts';
import { checkOptionalType } from '../../internal/option-type.ts';
import { sortableId } from '../../internal/sortable-id.ts';
import { type AgentRunOptions, checkBudget } from '../agent/index.ts';
import { continueClaimedRun, driveHeldRun, type RunWorker } from './drive-run.ts';
import { SessionError } from './errors.ts';
import { resumeReason } from './run-recorder.ts';
import { corruptView, currentView, toView } from './run-view.ts';
import type { DrainReport, Session } from './session-api.ts';
import { checkRunId, type SessionCore } from './session-core.ts';
import { RUN_STATUSES } from './store/index.ts';
import { checkThreadId, whenThreadFree } from './thread-options.ts';
import type { ThreadStart } from './types.ts';

/** The run methods of a session over `core`. */
export function sessionRuns(
  core: SessionCore,
): Pick<Session, 'start' | 'get' | 'list' | 'cancel' | 'continue' | 'drain'> {
  const { store, owner, leaseMs, threads, worker, requireAgent } = core;
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
      const starter = startingWorker(worker);
      const thread = await whenThreadFree(
        threads,
        () =>
          store.create({
            runId,
            threadId,
            input,
            owner: starter.owner,
            leaseMs,
            threadTokens: threads.maxTokens,
          }),
        startOptions.signal,
      );
      notifyStored(startOptions.onStored, runId);
      const fromThread = thread && threadRunOptions(thread);
      return driveHeldRun(
        starter,
        runId,
        (runOptions) => runner.generate(input, { ...runOptions, ...fromThread }),
        startOptions.signal,
      );
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
      checkOptionalType(
        filter.threadId,
        'string',
        'list: threadId',
        (message) => new SessionError('INVALID_ARGUMENT', message),
      );
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
        resumeReason(claimed),
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
        report.runs.push(await core.continueClaimed(run, resumeReason(run), drainOptions.signal));
      }
      return report;
    },
  };
}

/** Tells a caller of `start` that its run is stored; what the callback throws is its own. */
function notifyStored(onStored: ((runId: string) => void) | undefined, runId: string): void {
  try {
    onStored?.(runId);
  } catch {
    // The run is stored and goes on: a failing callback must not leave it held and undriven.
  }
}

/**
 * The worker as one `start()` is: its run leased to a name of that start's own (the
 * worker's, `#` and a random suffix), by which the run's insert, tried again after a
 * commit whose outcome was unknown, recognises its own run — while another start of the
 * same id still gets `RUN_EXISTS` (decision 170).
 */
const startingWorker = (worker: RunWorker): RunWorker => ({
  ...worker,
  owner: `${worker.owner}#${randomBytes(4).toString('hex')}`,
});

/**
 * What a run of a thread starts from: its window of messages, its latest summary as the
 * agent's `summary` (decision 149), and the agent its last run finished with (decision 191).
 */
function threadRunOptions(thread: ThreadStart): AgentRunOptions {
  return {
    history: thread.history,
    ...(thread.summary !== undefined && { summary: thread.summary }),
    ...(thread.agent !== undefined && { agent: thread.agent }),
  };
}
