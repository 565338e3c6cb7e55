/**
 * Runs as the lifecycle API shows them: decoded values and ISO times.
 */
import { fromCheckpoint } from '../json-value.ts';
import type {
  HistoryEntry,
  StoredPending,
  StoredWorkflowRun,
  WorkflowAuditEntry,
  WorkflowStatus,
} from '../types.ts';

/** What a waiting run waits on. */
export interface RunWaitingOn {
  /** When its earliest timer fires (ISO 8601): a sleep, or a signal wait's timeout. */
  timer?: string;
  /** The signals it waits for. */
  signals: string[];
  /** The pending decisions it waits for (decision ids). */
  decisions: string[];
  /** The child runs it waits for. */
  children?: string[];
}

/** A workflow run as `get`, `list` and `cancel` return it. */
export interface WorkflowRun<Output = unknown> {
  runId: string;
  workflowId: string;
  key?: string;
  status: WorkflowStatus;
  input: unknown;
  /** The output, once `done`. */
  output?: Output;
  /** Why it failed (`error`), or why its code threw while cancelled. */
  error?: { name: string; message: string; code?: string };
  /** What it waits on, while `waiting`. */
  waitingOn?: RunWaitingOn;
  /** Its undecided pending decisions (filled by `get`; tokens are never shown). */
  pending?: StoredPending[];
  /** Who decided or cancelled what (filled by `get`). */
  audit?: WorkflowAuditEntry[];
  /** Whether cancellation was asked for (the run unwinds at its next wait or step). */
  cancelRequested: boolean;
  /** The worker holding it, and until when (ISO 8601), while one does. */
  worker?: string;
  leaseExpiresAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** One checkpoint of a run, as `history` shows it. */
export interface WorkflowHistoryEntry {
  id: string;
  kind: HistoryEntry['kind'];
  state: 'done' | 'waiting';
  value?: unknown;
  error?: { name: string; message: string; code?: string };
  /** ISO 8601 times: first recorded, ended, and a wait's deadline. */
  startedAt: string;
  endedAt?: string;
  dueAt?: string;
  /** For a signal wait: the signal's name. */
  signal?: string;
  timedOut?: boolean;
  attempts?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The view of a stored run. */
export function runView<Output>(run: StoredWorkflowRun): WorkflowRun<Output> {
  const view: WorkflowRun<Output> = {
    runId: run.runId,
    workflowId: run.workflowId,
    status: run.status,
    input: fromCheckpoint(run.input),
    cancelRequested: run.cancelRequested,
    createdAt: iso(run.createdAt),
    updatedAt: iso(run.updatedAt),
  };
  if (run.key !== undefined) view.key = run.key;
  if (run.output !== undefined) view.output = fromCheckpoint(run.output) as Output;
  if (run.error) view.error = run.error;
  if (run.waiting) {
    view.waitingOn = { signals: run.waiting.signals, decisions: run.waiting.decisions };
    if (run.waiting.children?.length) view.waitingOn.children = run.waiting.children;
    if (run.waiting.timerDueAt !== undefined) view.waitingOn.timer = iso(run.waiting.timerDueAt);
  }
  if (run.leaseOwner !== undefined && run.status === 'running') {
    view.worker = run.leaseOwner;
    view.leaseExpiresAt = iso(run.leaseExpiresAt!);
  }
  return view;
}

/** The view of a history entry. */
export function entryView(entry: HistoryEntry): WorkflowHistoryEntry {
  const view: WorkflowHistoryEntry = {
    id: entry.id,
    kind: entry.kind,
    state: entry.state,
    startedAt: iso(entry.startedAt),
  };
  if (entry.value !== undefined) view.value = fromCheckpoint(entry.value);
  if (entry.error) view.error = entry.error;
  if (entry.endedAt !== undefined) view.endedAt = iso(entry.endedAt);
  if (entry.dueAt !== undefined) view.dueAt = iso(entry.dueAt);
  if (entry.name !== undefined) view.signal = entry.name;
  if (entry.timedOut) view.timedOut = true;
  if (entry.attempts !== undefined) view.attempts = entry.attempts;
  return view;
}
