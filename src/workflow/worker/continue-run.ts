/**
 * The worker's side of `ctx.continueAsNew` (decision 229): once the code has unwound,
 * the successor's input is checked against the workflow's input schema, and the run is
 * ended and its successor created in one store transaction.
 */
import type { OtelSpan } from '../../ai/agent/index.ts';
import { sortableId } from '../../internal/sortable-id.ts';
import type { Continuation, Execution, ExecutionEnd } from '../context/index.ts';
import { fromCheckpoint, toCheckpoint } from '../json-value.ts';
import { endSpan } from '../telemetry.ts';
import type { RunOutcome, WorkflowStore } from '../types.ts';
import type { AnyWorkflow } from '../workflow.ts';
import type { DriveEnd } from './drive.ts';
import { storedError } from './stored-error.ts';

/** The continuation to make of an execution that ended so, if the code asked for one. */
export function continuationAfter(
  execution: Execution,
  end: ExecutionEnd,
): Continuation | undefined {
  const settled = end.kind === 'returned' || end.kind === 'threw' || end.kind === 'park';
  return settled ? execution.continuation : undefined;
}

/**
 * Continues the run `owner` holds as new with the continuation's input: `'continued'`,
 * or `'lost'` when the lease was lost. A cancelled run ends `cancelled` instead, and an
 * input its schema refuses ends the run `error` (`INVALID_INPUT`). The execution's span
 * is ended here: OK when the run continued — the throw that unwound the code is no
 * failure — with `fino.workflow.execution.end: 'continued'` and the successor's id
 * (decision 254); failed with the error when the input was refused.
 */
export async function continueRun(
  definition: AnyWorkflow,
  runId: string,
  continuation: Continuation,
  options: { store: WorkflowStore; owner: string; cancelling: boolean; span?: OtelSpan },
): Promise<DriveEnd> {
  const { store, owner, span } = options;
  const end = async (outcome: RunOutcome) => {
    endSpan(span, outcome.status === 'error' ? outcome.error : undefined);
    return (await store.finish(runId, owner, outcome)) ? outcome.status : 'lost';
  };
  if (options.cancelling) return end({ status: 'cancelled' });
  let input: string | undefined;
  try {
    const what = `the input of workflow "${definition.id}" (ctx.continueAsNew)`;
    const { value } = await definition.checkInput(fromCheckpoint(continuation.input), what);
    input = toCheckpoint(value, what, definition.maxValueBytes);
  } catch (error) {
    return end({ status: 'error', error: storedError(error) });
  }
  const successor = { runId: sortableId('wf_'), ...(input === undefined ? {} : { input }) };
  const keep = definition.keepContinuedHistories;
  const continued = await store.continueAsNew(runId, owner, successor, keep);
  if (continued) {
    span?.setAttribute('fino.workflow.execution.end', 'continued');
    span?.setAttribute('fino.workflow.continued_to', successor.runId);
  }
  endSpan(span);
  return continued ? 'continued' : 'lost';
}
