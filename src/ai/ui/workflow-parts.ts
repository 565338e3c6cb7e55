/**
 * A workflow run as the chunks of one assistant UI message (decision 252): pure functions
 * from what `workflowRuns(store)` shows of a run to `start`, the `data-fino-workflow*`
 * parts and the end (`finish`, after `data-fino-error` and `error` for a failed run).
 * Every chunk is a function of stored facts only — no timestamp taken now, no random id —
 * so reading the same run twice gives the same chunks.
 */
import type {
  StreamChunk,
  WorkflowHistoryEntry,
  WorkflowRun,
  WorkflowStatus,
} from '../../workflow/index.ts';
import type {
  FinoDataTypes,
  FinoMessageMetadata,
  UIFinishReason,
  UIJsonValue,
  UIMessageChunk,
} from './types.ts';

/** The statuses a run ends in: nothing changes it after them. */
const ENDED: ReadonlySet<WorkflowStatus> = new Set(['done', 'error', 'cancelled', 'continued']);

/** Whether a run with `status` has ended. */
export const hasEnded = (status: WorkflowStatus): boolean => ENDED.has(status);

/** The error code of a failed run that carries none. */
export const RUN_FAILED = 'RUN_FAILED';

const FINISH_REASONS: Readonly<Record<string, UIFinishReason>> = {
  done: 'stop',
  error: 'error',
};

/** The message metadata of a run: its id and status. */
export const runMetadata = (run: WorkflowRun): FinoMessageMetadata => ({
  fino: { runId: run.runId, status: run.status },
});

/** The `start` chunk of the run's message (its id is the run id). */
export const startChunk = (run: WorkflowRun): UIMessageChunk => ({
  type: 'start',
  messageId: run.runId,
  messageMetadata: runMetadata(run),
});

/** The `data-fino-workflow` chunk: status, what the run waits on, its output or error. */
export function statusChunk(run: WorkflowRun): UIMessageChunk {
  const data: FinoDataTypes['fino-workflow'] = {
    runId: run.runId,
    workflowId: run.workflowId,
    status: run.status,
  };
  if (run.waitingOn !== undefined) data.waitingOn = run.waitingOn as unknown as UIJsonValue;
  if (run.output !== undefined) data.output = run.output as UIJsonValue;
  if (run.error !== undefined) data.error = errorOf(run.error);
  if (run.continuedTo !== undefined) data.continuedTo = run.continuedTo;
  return { type: 'data-fino-workflow', id: run.runId, data };
}

const errorOf = (error: NonNullable<WorkflowRun['error']>) =>
  error.code === undefined
    ? { message: error.message }
    : { code: error.code, message: error.message };

type DecisionData = FinoDataTypes['fino-workflow-decision'];

/**
 * The run's decisions as `data-fino-workflow-decision` data, by decision id: the decided
 * ones as its audit trail has them, then the pending ones (oldest first).
 */
export function decisionsOf(run: WorkflowRun): Map<string, DecisionData> {
  const decisions = new Map<string, DecisionData>();
  for (const entry of run.audit ?? []) {
    if (entry.decisionId === undefined || !['approve', 'reject', 'resume'].includes(entry.action)) {
      continue;
    }
    const data: DecisionData = {
      runId: run.runId,
      decisionId: entry.decisionId,
      state: 'decided',
      decision: entry.action,
    };
    if (entry.toolName !== undefined) data.toolName = entry.toolName;
    decisions.set(entry.decisionId, data);
  }
  for (const pending of run.pending ?? []) {
    if (decisions.has(pending.decisionId)) continue;
    decisions.set(pending.decisionId, {
      runId: run.runId,
      decisionId: pending.decisionId,
      state: 'pending',
      toolName: pending.toolName,
      kind: pending.kind,
      detail: definedFields({
        toolCallId: pending.toolCallId,
        args: pending.args,
        reason: pending.reason,
        payload: pending.payload,
        risk: pending.risk,
        sideEffects: pending.sideEffects,
      }),
    });
  }
  return decisions;
}

/** The fields of `fields` that are not `undefined`, as a JSON object. */
function definedFields(fields: Record<string, unknown>): UIJsonValue {
  const out: Record<string, UIJsonValue> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) out[key] = value as UIJsonValue;
  }
  return out;
}

/** A `data-fino-workflow-decision` chunk (`id` = the decision id, so it updates in place). */
export const decisionChunk = (data: DecisionData): UIMessageChunk => ({
  type: 'data-fino-workflow-decision',
  id: data.decisionId,
  data,
});

/** The `ctx.emit` events of a history, in the order the run emitted them. */
export const emitsOf = (history: readonly WorkflowHistoryEntry[]): WorkflowHistoryEntry[] =>
  history.filter((entry) => entry.kind === 'emit' && entry.state === 'done');

/** A `data-fino-workflow-event` chunk for an emit entry (its name is the entry's `signal`). */
export function eventChunk(runId: string, entry: WorkflowHistoryEntry): UIMessageChunk {
  const data: FinoDataTypes['fino-workflow-event'] = { runId, name: entry.signal ?? '' };
  if (entry.value !== undefined) data.value = entry.value as UIJsonValue;
  return { type: 'data-fino-workflow-event', data };
}

/** A `data-fino-workflow-stream` chunk for a chunk of the run's stream `stream`. */
export const streamDataChunk = (
  runId: string,
  stream: string,
  chunk: StreamChunk,
): UIMessageChunk => ({
  type: 'data-fino-workflow-stream',
  data: { runId, stream, offset: chunk.offset, value: chunk.value as UIJsonValue },
});

/** The id of the text part a text stream's string chunks go to. */
export const textPartId = (stream: string): string => `text-stream-${stream}`;

/**
 * The chunks that end the message of an ended run: for a failed run `data-fino-error`
 * (its code, `RUN_FAILED` when it has none) and `error`, then `finish`.
 */
export function endChunks(run: WorkflowRun): UIMessageChunk[] {
  const finish: UIMessageChunk = {
    type: 'finish',
    finishReason: FINISH_REASONS[run.status] ?? 'other',
    messageMetadata: runMetadata(run),
  };
  if (run.status !== 'error') return [finish];
  const code = run.error?.code ?? RUN_FAILED;
  const message = run.error?.message ?? `workflow run "${run.runId}" failed`;
  return [
    { type: 'data-fino-error', data: { code, message } },
    { type: 'error', errorText: `${code}: ${message}` },
    finish,
  ];
}
