import { decisionMismatch } from '../../../internal/durable/index.ts';
import {
  type Decision,
  type PendingCall,
  type RunState,
  STATE_VERSION,
} from '../../agent/index.ts';
import { SessionError } from '../errors.ts';
import type { RunStatus, StoredPending, StoredProgress, StoredRun } from '../types.ts';

/** The layout of a run row this version writes; a row of another format is refused. */
export const RECORD_FORMAT = 1;

/**
 * Every status a stored run can have, for validating a filter or building a menu.
 *
 * @example
 * ```ts
 * import { RUN_STATUSES } from 'fino:ai/session';
 *
 * console.log(RUN_STATUSES.includes('suspended')); // true
 * ```
 */
export const RUN_STATUSES: readonly RunStatus[] = [
  'running',
  'ready',
  'suspended',
  'done',
  'error',
  'cancelled',
];

/** A `fino_runs` row as both SQL stores return it. */
export interface RunRow {
  run_id: string;
  thread_id: string | null;
  status: string;
  format: number | string;
  input: string;
  state: string | null;
  text: string | null;
  error: string | null;
  /** The failed run's error code; absent in rows read before migration 7. */
  error_code?: string | null;
  round: number | string;
  lease_owner: string | null;
  lease_expires_at: number | string | null;
  /** JSON of a {@link StoredProgress}; absent in rows read before migration 3. */
  progress?: string | null;
  created_at: number | string;
  updated_at: number | string;
  /** Absent in rows read before migration 5. */
  revision?: number | string | null;
  /** Where the run's thread window began, and how many thread messages it loaded (migration 6). */
  thread_start?: number | string | null;
  thread_loaded?: number | string | null;
  /** The status the last claim took the run from (migration 9). */
  claimed_from?: string | null;
}

/** A `fino_pending` row. */
export interface PendingRow {
  token_hash: string;
  run_id: string;
  round: number | string;
  tool_call_id: string;
  call: string;
  decision: string | null;
}

const corrupt = (runId: string, what: string) =>
  new SessionError(
    'CORRUPT_RUN',
    `run "${runId}" cannot be read: ${what}; its row is left untouched`,
    runId,
  );

function parse(runId: string, column: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw corrupt(runId, `${column} is not valid JSON (${(error as Error).message})`);
  }
}

/**
 * Decodes and checks a run row and its current pending rows; throws `CORRUPT_RUN`
 * (naming the run and what is wrong) for bad JSON, an unknown format or state version.
 */
export function decodeRun(row: RunRow, pendingRows: readonly PendingRow[]): StoredRun {
  const runId = row.run_id;
  if (Number(row.format) !== RECORD_FORMAT) {
    throw corrupt(runId, `unknown record format ${row.format} (this fino reads ${RECORD_FORMAT})`);
  }
  if (!RUN_STATUSES.includes(row.status as RunStatus)) {
    throw corrupt(runId, `unknown status "${row.status}"`);
  }
  const run: StoredRun = {
    runId,
    status: row.status as RunStatus,
    input: parse(runId, 'input', row.input) as StoredRun['input'],
    pending: pendingRows.map((p) => decodePending(runId, p)),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
  if (row.revision !== undefined && row.revision !== null) run.revision = Number(row.revision);
  if (row.thread_id !== null) run.threadId = row.thread_id;
  if (row.state !== null) run.state = decodeState(runId, row.state);
  if (row.text !== null) run.text = row.text;
  if (row.error !== null) run.error = row.error;
  if (typeof row.error_code === 'string') run.errorCode = row.error_code;
  if (row.lease_owner !== null) run.leaseOwner = row.lease_owner;
  if (row.lease_expires_at !== null) run.leaseExpiresAt = Number(row.lease_expires_at);
  const progress = decodeProgress(row.progress);
  if (progress) run.progress = progress;
  return run;
}

/**
 * The stored progress, or `undefined` when there is none or it does not read as one:
 * progress is advisory, so a bad value hides it rather than making the run unreadable.
 */
function decodeProgress(text: string | null | undefined): StoredProgress | undefined {
  if (typeof text !== 'string') return undefined;
  let value: Partial<StoredProgress> | null;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (
    value === null ||
    typeof value !== 'object' ||
    typeof value.toolCallId !== 'string' ||
    typeof value.toolName !== 'string' ||
    typeof value.at !== 'number' ||
    typeof value.progress !== 'number' ||
    (value.total !== undefined && typeof value.total !== 'number') ||
    (value.message !== undefined && typeof value.message !== 'string')
  ) {
    return undefined;
  }
  const { toolCallId, toolName, at, progress, total, message } = value;
  return {
    toolCallId,
    toolName,
    at,
    progress,
    ...(total !== undefined && { total }),
    ...(message !== undefined && { message }),
  };
}

function decodeState(runId: string, text: string): RunState {
  const state = parse(runId, 'state', text) as Partial<RunState> | null;
  if (state === null || typeof state !== 'object' || Array.isArray(state)) {
    throw corrupt(runId, 'state is not an object');
  }
  if (state.version !== STATE_VERSION) {
    throw corrupt(
      runId,
      `unknown state version ${JSON.stringify(state.version)} (this fino reads ${STATE_VERSION})`,
    );
  }
  if (state.runId !== runId) {
    throw corrupt(runId, `state belongs to run ${JSON.stringify(state.runId)}`);
  }
  return state as RunState;
}

function decodePending(runId: string, row: PendingRow): StoredPending {
  const call = parse(runId, `pending call ${row.tool_call_id}`, row.call) as PendingCall | null;
  if (call === null || typeof call !== 'object' || call.toolCallId !== row.tool_call_id) {
    throw corrupt(runId, `pending call ${row.tool_call_id} does not describe that call`);
  }
  const pending: StoredPending = { call, tokenHash: row.token_hash };
  if (row.decision !== null) {
    pending.decision = parse(runId, `decision on ${row.tool_call_id}`, row.decision) as Decision;
  }
  return pending;
}

/** The audit note of a decision: the caller's note, or the rejection's reason. */
export const decisionNote = (decision: Decision, note: string | undefined): string | undefined =>
  note ?? ('reject' in decision ? decision.reject : undefined);

/**
 * Checks that a decision answers the kind of pending call it is for: an approval takes
 * approve or reject, a suspension takes resume or reject. `INVALID_ARGUMENT` otherwise,
 * before anything is recorded.
 */
export function checkDecisionFits(call: PendingCall, decision: Decision, where: string): void {
  const mismatch = decisionMismatch(call, decision);
  if (mismatch !== undefined) throw new SessionError('INVALID_ARGUMENT', `${where} ${mismatch}`);
}
