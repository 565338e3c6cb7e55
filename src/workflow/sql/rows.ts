/**
 * Rows of the workflow tables and how they read back: a row that cannot be read is
 * reported as `CORRUPT_RUN` with its run id and is never modified.
 */
import type { Decision, PendingCall } from '../../ai/agent/index.ts';
import { unreadableEntry, WorkflowError } from '../errors.ts';
import { WORKFLOW_STATUSES } from '../statuses.ts';
import type {
  ChildCancelPolicy,
  HistoryEntry,
  StoredError,
  StoredPending,
  StoredWorkflowRun,
  WaitingOn,
  WorkflowStatus,
} from '../types.ts';
import { entryProblem } from './entry-shape.ts';

/** The record format of the rows this fino writes. */
export const RECORD_FORMAT = 1;

export interface RunRow {
  run_id: string;
  workflow_id: string;
  run_key: string | null;
  status: string;
  format: number | string;
  input: string | null;
  output: string | null;
  error: string | null;
  waiting: string | null;
  wake_at: number | string | null;
  cancel_requested: number | string | boolean;
  parent_run_id?: string | null;
  signals?: string | null;
  on_parent_cancel?: string | null;
  forked_from?: string | null;
  forked_at_step?: string | null;
  continued_from?: string | null;
  continued_to?: string | null;
  chain_root?: string | null;
  lease_owner: string | null;
  lease_expires_at: number | string | null;
  created_at: number | string;
  updated_at: number | string;
}

export interface HistoryRow {
  run_id: string;
  entry_id: string;
  seq: number | string;
  body: string;
}

/** Every status a run may have, as stores keep it. */
export const STATUSES: readonly string[] = WORKFLOW_STATUSES;

const optionalNumber = (value: number | string | null) =>
  value === null ? undefined : Number(value);

/** Decodes a run row; `CORRUPT_RUN` when it cannot be read. */
export function decodeRunRow(row: RunRow): StoredWorkflowRun {
  try {
    if (Number(row.format) !== RECORD_FORMAT) {
      throw new Error(`record format ${row.format} is not one this fino reads (${RECORD_FORMAT})`);
    }
    if (!STATUSES.includes(row.status)) throw new Error(`unknown status "${row.status}"`);
    const run: StoredWorkflowRun = {
      runId: row.run_id,
      workflowId: row.workflow_id,
      status: row.status as WorkflowStatus,
      cancelRequested: Number(row.cancel_requested) === 1 || row.cancel_requested === true,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
    if (row.run_key !== null) run.key = row.run_key;
    if (row.parent_run_id !== null && row.parent_run_id !== undefined)
      run.parentRunId = row.parent_run_id;
    if (row.signals !== null && row.signals !== undefined) run.signals = signalNames(row.signals);
    if (row.on_parent_cancel) run.onParentCancel = childCancelPolicy(row.on_parent_cancel);
    if (row.forked_from && row.forked_at_step)
      run.forkedFrom = { runId: row.forked_from, fromStep: row.forked_at_step };
    readChainLinks(row, run);
    if (row.input !== null) run.input = row.input;
    if (row.output !== null) run.output = row.output;
    if (row.error !== null) run.error = JSON.parse(row.error) as StoredError;
    if (row.waiting !== null && row.status === 'waiting')
      run.waiting = JSON.parse(row.waiting) as WaitingOn;
    const wakeAt = optionalNumber(row.wake_at);
    if (wakeAt !== undefined) run.wakeAt = wakeAt;
    if (row.lease_owner !== null) {
      run.leaseOwner = row.lease_owner;
      run.leaseExpiresAt = Number(row.lease_expires_at);
    }
    return run;
  } catch (error) {
    throw new WorkflowError(
      'CORRUPT_RUN',
      `stored workflow run "${row.run_id}" cannot be read: ${(error as Error).message}`,
      { runId: row.run_id },
    );
  }
}

/**
 * Decodes a run row for a list: a row that cannot be read is listed with what can be
 * (its ids, a known status or `error`, its times) and the reason in `corrupt`, so one
 * tampered row never breaks the list of every run.
 */
export function decodeListedRunRow(row: RunRow): StoredWorkflowRun {
  try {
    return decodeRunRow(row);
  } catch (error) {
    return {
      runId: row.run_id,
      workflowId: row.workflow_id,
      status: (STATUSES.includes(row.status) ? row.status : 'error') as WorkflowStatus,
      cancelRequested: false,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      corrupt: (error as Error).message,
    };
  }
}

/** A child run's policy when its parent is cancelled, as its row keeps it. */
function childCancelPolicy(text: string): ChildCancelPolicy {
  if (text === 'cancel' || text === 'abandon' || text === 'wait') return text;
  throw new Error(`its policy on a parent's cancellation "${text}" is not one fino records`);
}

/** The continue-as-new links of a run row, when it has them. */
function readChainLinks(row: RunRow, run: StoredWorkflowRun): void {
  if (row.continued_from) run.continuedFrom = row.continued_from;
  if (row.continued_to) run.continuedTo = row.continued_to;
  if (row.chain_root) run.chainRoot = row.chain_root;
}

/** The declared signal names a run row keeps, as JSON: an array of strings. */
function signalNames(text: string): string[] {
  const names: unknown = JSON.parse(text);
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
    throw new Error('its signal names are not an array of strings');
  }
  return names;
}

/**
 * Decodes a history row; `CORRUPT_RUN` naming the run and the entry when it cannot be
 * read (not JSON, or not the shape of an entry). Saved values are checked when replayed.
 */
export function decodeHistoryRow(row: HistoryRow): HistoryEntry {
  let why: string | undefined;
  let body: unknown;
  try {
    body = JSON.parse(row.body);
    why = entryProblem(body);
  } catch (error) {
    why = `its body is not JSON (${(error as Error).message})`;
  }
  if (why !== undefined) throw unreadableEntry(row.run_id, row.entry_id, row.seq, why);
  return { ...(body as Omit<HistoryEntry, 'id' | 'seq'>), id: row.entry_id, seq: Number(row.seq) };
}

/** The body column of a history entry: everything but its keys. */
export function encodeEntry(entry: HistoryEntry): string {
  const { id: _id, seq: _seq, ...body } = entry;
  return JSON.stringify(body);
}

export interface PendingRow {
  token_hash: string;
  run_id: string;
  decision_id: string;
  call: string;
  decision: string | null;
  created_at: number | string;
}

/**
 * Decodes a pending row (stored as it always was: the call as JSON) with its run's
 * workflow id (read from the run); `CORRUPT_RUN` when it cannot be read.
 */
export function decodePendingRow(row: PendingRow & { workflow_id: string }): StoredPending {
  try {
    const call = JSON.parse(row.call) as PendingCall;
    // The call's fields at the top, and once more as the deprecated `call` (decision 159).
    const pending: StoredPending = {
      ...call,
      runId: row.run_id,
      workflowId: row.workflow_id,
      decisionId: row.decision_id,
      call,
      createdAt: Number(row.created_at),
    };
    if (row.decision !== null) pending.decision = JSON.parse(row.decision) as Decision;
    return pending;
  } catch (error) {
    throw new WorkflowError(
      'CORRUPT_RUN',
      `pending decision "${row.decision_id}" of workflow run "${row.run_id}" cannot be read: ${(error as Error).message}`,
      { runId: row.run_id },
    );
  }
}
