/**
 * Driving one leased run: executions of its code against its history, until it ends,
 * parks, loses its lease or its worker stops. A park that finds what it waits for
 * already there (a queued signal, a due timer, a cancellation) executes again at once.
 */
import type { PendingDecision } from '../context/index.ts';
import { Execution, isStoreUnavailable } from '../context/index.ts';
import { WorkflowError } from '../errors.ts';
import { fromCheckpoint, toCheckpoint } from '../json-value.ts';
import { endSpan, type SpanStarter } from '../telemetry.ts';
import type { HistoryEntry, RunOutcome, StoredWorkflowRun, WorkflowStore } from '../types.ts';
import type { AnyWorkflow } from '../workflow.ts';
import { continuationAfter, continueRun } from './continue-run.ts';
import { parkServing } from './serve-requests.ts';
import { storedError } from './stored-error.ts';

/** How driving a run ended. */
export type DriveEnd = 'done' | 'error' | 'cancelled' | 'parked' | 'lost' | 'stopped' | 'continued';

/** What a worker lends a run it drives. */
export interface DriveOptions {
  store: WorkflowStore;
  owner: string;
  leaseMs: number;
  /** Hands out each new pending decision with its token, once. */
  onPending?(pending: PendingDecision): void;
  /** Starts spans, when tracing is on. */
  startSpan?: SpanStarter;
  /** Called with each execution, so that the worker can stop it. */
  onExecution(execution: Execution): void;
  /** Called when the run cannot be read (`CORRUPT_RUN`); it is then ended as `error` with it. */
  onCorrupt(error: WorkflowError): void;
}

/**
 * Drives the leased `run` of `definition` until it ends, parks, is lost or stopped. A
 * database failure (`STORE_UNAVAILABLE`) never ends the run: the worker stops driving it,
 * releases it if the database answers (else its lease lapses), and rethrows (decision 170).
 */
export async function driveRun(
  definition: AnyWorkflow,
  leased: StoredWorkflowRun,
  options: DriveOptions,
): Promise<DriveEnd> {
  try {
    return await driveExecutions(definition, leased, options);
  } catch (error) {
    if (isStoreUnavailable(error)) {
      await options.store.release(leased.runId, options.owner).catch(() => {});
    }
    throw error;
  }
}

/** Executes the run again and again until it ends, parks, is lost or stopped (see {@link driveRun}). */
async function driveExecutions(
  definition: AnyWorkflow,
  leased: StoredWorkflowRun,
  options: DriveOptions,
): Promise<DriveEnd> {
  const { store, owner, leaseMs } = options;
  let run = leased;
  for (;;) {
    let history: HistoryEntry[];
    let input: unknown;
    try {
      history = await store.history(run.runId);
      input = runInput(run);
    } catch (error) {
      if ((error as WorkflowError).code !== 'CORRUPT_RUN') throw error;
      return corrupted(run, error as WorkflowError, options);
    }
    const runSpan = options.startSpan?.(`workflow.run ${definition.id}`, {
      'fino.workflow.id': definition.id,
      'fino.workflow.run_id': run.runId,
      'fino.workflow.replayed_entries': history.length,
    });
    const execution = new Execution(run, history, {
      ...(options.startSpan && runSpan
        ? {
            span: (name: string, attributes: Record<string, string | number | boolean>) =>
              options.startSpan!(name, attributes, runSpan),
          }
        : {}),
      store,
      owner,
      leaseMs,
      maxValueBytes: definition.maxValueBytes,
      maxHistoryEntries: definition.maxHistoryEntries,
      ...(definition.signalNames ? { signals: definition.signalNames } : {}),
      ...(options.onPending ? { onPending: options.onPending } : {}),
    });
    options.onExecution(execution);
    const end = await execution.execute(() => definition.options.run(execution, input as never));
    runSpan?.setAttribute('fino.workflow.execution.end', end.kind);
    const continuation = continuationAfter(execution, end);
    if (continuation) {
      const cancelling = execution.cancelling;
      const span = runSpan;
      return continueRun(definition, run.runId, continuation, { store, owner, cancelling, span });
    }
    endSpan(
      runSpan,
      end.kind === 'threw' ? end.error : end.kind === 'fatal' ? end.error : undefined,
    );
    let outcome: RunOutcome;
    switch (end.kind) {
      case 'lost':
        return 'lost';
      case 'unavailable':
        throw end.error;
      case 'stopped':
        await store.release(run.runId, owner);
        return 'stopped';
      case 'park': {
        const { maxValueBytes, maxHistoryEntries } = definition;
        const serving = { store, owner, leaseMs, maxValueBytes, maxHistoryEntries };
        const parked = await parkServing(execution, run.runId, end.waiting, serving);
        if (parked !== 'again') return parked;
        const now = await store.get(run.runId);
        if (!now) return 'lost';
        run = now;
        continue;
      }
      case 'fatal':
        if (end.error.code === 'CORRUPT_RUN') return corrupted(run, end.error, options);
        outcome = { status: 'error', error: storedError(end.error) };
        break;
      case 'threw': {
        const error = storedError(end.error);
        outcome = execution.cancelling
          ? error.code === 'CANCELLED'
            ? { status: 'cancelled' }
            : { status: 'cancelled', error }
          : { status: 'error', error };
        break;
      }
      case 'returned':
        outcome = execution.cancelling
          ? { status: 'cancelled' }
          : await output(definition, end.value);
        break;
    }
    return (await store.finish(run.runId, owner, outcome)) ? outcome.status : 'lost';
  }
}

/** The input of a run; `CORRUPT_RUN` when its text is not JSON. */
function runInput(run: StoredWorkflowRun): unknown {
  try {
    return fromCheckpoint(run.input);
  } catch (error) {
    throw new WorkflowError(
      'CORRUPT_RUN',
      `the input of workflow run "${run.runId}" cannot be read: it is not JSON (${(error as Error).message})`,
      { runId: run.runId },
    );
  }
}

/**
 * Ends a run that cannot be read as `error` with its `CORRUPT_RUN` (decision 180): it
 * cannot be replayed, and is shown as such; its rows are left as they are.
 */
async function corrupted(
  run: StoredWorkflowRun,
  error: WorkflowError,
  options: DriveOptions,
): Promise<DriveEnd> {
  options.onCorrupt(error);
  const outcome: RunOutcome = { status: 'error', error: storedError(error) };
  return (await options.store.finish(run.runId, options.owner, outcome)) ? 'error' : 'lost';
}

/** The outcome of a run that returned `value`: checked against the output schema and as JSON. */
async function output(definition: AnyWorkflow, value: unknown): Promise<RunOutcome> {
  try {
    const { value: checked } = await definition.checkOutput(value);
    const text = toCheckpoint(
      checked,
      `the output of workflow "${definition.id}"`,
      definition.maxValueBytes,
    );
    return text === undefined ? { status: 'done' } : { status: 'done', output: text };
  } catch (error) {
    return { status: 'error', error: storedError(error) };
  }
}
