/**
 * The views of a session: how a stored run is shown to callers of `start`, `get`,
 * `list`, … (ISO times, only the undecided pending calls, the lease of a running run).
 */
import { SessionError } from './errors.ts';
import type { AuditEntry, CorruptRun, SessionRun, Store, StoredRun } from './types.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** The session's view of a stored run, with its audit trail when given. */
export function toView(run: StoredRun, audit?: AuditEntry[]): SessionRun {
  const base = {
    runId: run.runId,
    ...(run.threadId !== undefined && { threadId: run.threadId }),
    createdAt: iso(run.createdAt),
    updatedAt: iso(run.updatedAt),
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
    case 'running':
      return {
        ...base,
        status: 'running',
        worker: run.leaseOwner ?? '',
        leaseExpiresAt: iso(run.leaseExpiresAt ?? 0),
      };
    case 'error':
      return { ...base, status: 'error', error: run.error ?? '' };
    default:
      return { ...base, status: run.status };
  }
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
