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
  /** For a fork: the run whose history it copied, up to the step it was forked from. */
  forkedFrom?: { runId: string; fromStep: string };
  /** The run this one continues (`ctx.continueAsNew`), and the run that continues it. */
  continuedFrom?: string;
  continuedTo?: string;
  /**
   * For a run of a continue-as-new chain (filled by `get`): the chain's first run and
   * its last one, which signals, cancels and `result` go to.
   */
  chain?: { first: string; latest: string };
  /** The worker holding it, and until when (ISO 8601), while one does. */
  worker?: string;
  leaseExpiresAt?: string;
  createdAt: string;
  updatedAt: string;
  /**
   * Why part of the stored run cannot be shown (a date out of range, a value that is not
   * JSON): those fields are left out and the rest is shown. Absent for a readable run.
   */
  corrupt?: string;
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
  /** Why part of the stored checkpoint cannot be shown (see {@link WorkflowRun.corrupt}). */
  corrupt?: string;
}

/**
 * Reads the stored fields of one record for a view, never throwing: a field that cannot
 * be read is left out and named in `problems`, so one bad row cannot break a list.
 */
class FieldReader {
  readonly problems: string[] = [];

  /** Epoch milliseconds as ISO 8601; `undefined` (and a problem) out of a `Date`'s range. */
  iso(ms: number, field: string): string | undefined {
    const date = new Date(ms);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
    this.problems.push(`${field} ${String(ms)} is not a date`);
    return undefined;
  }

  /** A checkpointed value; `undefined` (and a problem) when its text is not JSON. */
  json(text: string | undefined, field: string): unknown {
    try {
      return fromCheckpoint(text);
    } catch (error) {
      this.problems.push(`${field} is not JSON (${(error as Error).message})`);
      return undefined;
    }
  }

  /** Sets `view.corrupt` when a field could not be read. */
  flag(view: { corrupt?: string }): void {
    if (this.problems.length > 0) view.corrupt = this.problems.join('; ');
  }
}

/** The view of a stored run. */
export function runView<Output>(run: StoredWorkflowRun): WorkflowRun<Output> {
  const read = new FieldReader();
  const view: WorkflowRun<Output> = {
    runId: run.runId,
    workflowId: run.workflowId,
    status: run.status,
    input: read.json(run.input, 'the input'),
    cancelRequested: run.cancelRequested,
    createdAt: read.iso(run.createdAt, 'createdAt') ?? '',
    updatedAt: read.iso(run.updatedAt, 'updatedAt') ?? '',
  };
  if (run.key !== undefined) view.key = run.key;
  if (run.forkedFrom) view.forkedFrom = run.forkedFrom;
  if (run.output !== undefined) view.output = read.json(run.output, 'the output') as Output;
  if (run.error) view.error = run.error;
  if (run.continuedFrom !== undefined) view.continuedFrom = run.continuedFrom;
  if (run.continuedTo !== undefined) view.continuedTo = run.continuedTo;
  if (run.waiting) {
    view.waitingOn = { signals: run.waiting.signals, decisions: run.waiting.decisions };
    if (run.waiting.children?.length) view.waitingOn.children = run.waiting.children;
    const timer = run.waiting.timerDueAt;
    if (timer !== undefined) {
      const at = read.iso(timer, 'the timer');
      if (at !== undefined) view.waitingOn.timer = at;
    }
  }
  if (run.leaseOwner !== undefined && run.status === 'running') {
    view.worker = run.leaseOwner;
    const until = read.iso(run.leaseExpiresAt!, 'the lease');
    if (until !== undefined) view.leaseExpiresAt = until;
  }
  if (run.corrupt !== undefined) read.problems.push(run.corrupt);
  read.flag(view);
  return view;
}

/** The view of a history entry. */
export function entryView(entry: HistoryEntry): WorkflowHistoryEntry {
  const read = new FieldReader();
  const view: WorkflowHistoryEntry = {
    id: entry.id,
    kind: entry.kind,
    state: entry.state,
    startedAt: read.iso(entry.startedAt, 'startedAt') ?? '',
  };
  if (entry.value !== undefined) {
    const value = read.json(entry.value, 'the value');
    if (value !== undefined) view.value = value;
  }
  if (entry.error) view.error = entry.error;
  const endedAt = entry.endedAt === undefined ? undefined : read.iso(entry.endedAt, 'endedAt');
  if (endedAt !== undefined) view.endedAt = endedAt;
  const dueAt = entry.dueAt === undefined ? undefined : read.iso(entry.dueAt, 'the deadline');
  if (dueAt !== undefined) view.dueAt = dueAt;
  if (entry.name !== undefined) view.signal = entry.name;
  if (entry.timedOut) view.timedOut = true;
  if (entry.attempts !== undefined) view.attempts = entry.attempts;
  read.flag(view);
  return view;
}
