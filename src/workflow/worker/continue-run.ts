/**
 * The worker's side of `ctx.continueAsNew` (decision 229): once the code has unwound,
 * the successor's input is checked against the workflow's input schema, and the run is
 * ended and its successor created in one store transaction.
 */
import { sortableId } from '../../internal/sortable-id.ts';
import type { Continuation, Execution, ExecutionEnd } from '../context/index.ts';
import { fromCheckpoint, toCheckpoint } from '../json-value.ts';
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
 * input its schema refuses ends the run `error` (`INVALID_INPUT`).
 */
export async function continueRun(
  definition: AnyWorkflow,
  runId: string,
  continuation: Continuation,
  options: { store: WorkflowStore; owner: string; cancelling: boolean },
): Promise<DriveEnd> {
  const { store, owner } = options;
  const end = async (outcome: RunOutcome) =>
    (await store.finish(runId, owner, outcome)) ? outcome.status : 'lost';
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
  return (await store.continueAsNew(runId, owner, successor, keep)) ? 'continued' : 'lost';
}
