/**
 * What every method of a session shares: its store and agent (checked), its worker
 * name and lease, and how it continues a run it has claimed.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { describeValue } from '../../internal/describe-value.ts';
import { checkDuration } from '../../internal/duration.ts';
import { continueClaimedRun, type RunWorker } from './drive-run.ts';
import { SessionError } from './errors.ts';
import { eventLimits } from './events-option.ts';
import type { ResumeReason } from './run-event-types.ts';
import type { SessionOptions } from './session-api.ts';
import { type ThreadSettings, threadSettings } from './thread-options.ts';
import type { SessionAgent, SessionRun, Store, StoredRun } from './types.ts';

const DEFAULT_LEASE_MS = 30_000;
/** A shorter lease would expire between two heartbeats of a busy event loop. */
const MIN_LEASE_MS = 10;

/** A session's store, agent, worker and lease, as its methods use them. */
export interface SessionCore {
  store: Store;
  agent: SessionAgent | undefined;
  /** This worker's name in leases. */
  owner: string;
  leaseMs: number;
  threads: ThreadSettings;
  worker: RunWorker;
  /** The session's agent; `INVALID_ARGUMENT` naming `action` when it has none. */
  requireAgent(action: string): SessionAgent;
  /** Continues a run this worker has claimed (`resumed`: why, for its log of events). */
  continueClaimed(run: StoredRun, resumed: ResumeReason, signal?: AbortSignal): Promise<SessionRun>;
}

/** Checks `session()`'s options and makes what its methods share. */
export function sessionCore(options: SessionOptions): SessionCore {
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
  const events = eventLimits(options.events);
  const worker: RunWorker = { store, owner, leaseMs, model: threads.model, events };
  return {
    store,
    agent,
    owner,
    leaseMs,
    threads,
    worker,
    requireAgent,
    continueClaimed: (run, resumed, signal) =>
      continueClaimedRun(worker, requireAgent('continue'), run, resumed, signal),
  };
}

/** `INVALID_ARGUMENT` unless `runId` is a non-empty string. */
export function checkRunId(runId: unknown, method: string): asserts runId is string {
  if (typeof runId !== 'string' || runId === '') {
    throw new SessionError(
      'INVALID_ARGUMENT',
      `${method}(runId): expected a non-empty string, received ${describeValue(runId)}`,
    );
  }
}
