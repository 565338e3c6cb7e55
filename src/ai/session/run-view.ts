/**
 * The views of a session: how a stored run is shown to callers of `start`, `get`,
 * `list`, … (ISO times, only the undecided pending calls, the lease of a running run).
 */
import { SessionError } from './errors.ts';
import type { AuditEntry, CorruptRun, RunProgress, SessionRun, Store, StoredRun } from './types.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** The session's view of a stored run, with its audit trail when given. */
export function toView(run: StoredRun, audit?: AuditEntry[]): SessionRun {
  const base = {
    runId: run.runId,
    ...(run.threadId !== undefined && { threadId: run.threadId }),
    input: run.input,
    createdAt: iso(run.createdAt),
    updatedAt: iso(run.updatedAt),
    ...(run.revision !== undefined && { revision: run.revision }),
    ...(run.state !== undefined && { state: run.state }),
    ...(audit !== undefined && { audit }),
  };
  switch (run.status) {
    case 'done':
      return { ...base, status: 'done', text: run.text ?? '' };
    case 'suspended':
      return {
        ...base,
        status: 'suspended',
        pending: run.pending
          .filter((p) => p.decision === undefined)
          .map((p) => ({ ...p.call, ...(p.token !== undefined && { token: p.token }) })),
      };
    case 'running': {
      const progress = runningProgress(run);
      return {
        ...base,
        status: 'running',
        worker: run.leaseOwner ?? '',
        leaseExpiresAt: iso(run.leaseExpiresAt ?? 0),
        ...(progress && { progress }),
      };
    }
    case 'error':
      return {
        ...base,
        status: 'error',
        error: run.error ?? '',
        ...(run.errorCode !== undefined && { code: run.errorCode }),
      };
    default:
      return { ...base, status: run.status };
  }
}

/**
 * The stored progress while the call that reported it is still running: a call of the
 * state's open turn without a result. Once its result is checkpointed the update is stale.
 */
function runningProgress(run: StoredRun): RunProgress | undefined {
  const { progress, state } = run;
  const turn = state?.turn;
  if (!progress || !turn) return undefined;
  const id = progress.toolCallId;
  const called = state.steps[turn.step]?.toolCalls.some((call) => call.id === id);
  if (!called || turn.results.some((result) => result.toolCallId === id)) return undefined;
  return { ...progress, at: iso(progress.at) };
}

/** How `list` and `drain` report a run whose row cannot be read. */
export const corruptView = (error: SessionError): CorruptRun => ({
  runId: error.runId ?? '',
  status: 'corrupt',
  error: error.message,
});

/** The run as it is now in the store; `NOT_FOUND` when there is none. */
export async function currentView(store: Store, runId: string): Promise<SessionRun> {
  const run = await store.get(runId);
  if (!run) throw new SessionError('NOT_FOUND', `no run with id "${runId}"`, runId);
  return toView(run);
}
