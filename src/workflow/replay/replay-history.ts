/**
 * `replayHistory` (decision 237): a run's exported history replayed against the current
 * code, as a worker would replay it, with no side effect — no step, tool, agent, child or
 * timer runs and nothing is written anywhere. It fails with `NONDETERMINISM` where the
 * live replay guard would fail the run, with the same message, and with `CORRUPT_RUN` for
 * a history that cannot be read.
 */
import { Execution } from '../context/index.ts';
import { WorkflowError } from '../errors.ts';
import { fromCheckpoint } from '../json-value.ts';
import type { AnyWorkflow } from '../workflow.ts';
import { edgeStore } from './edge-store.ts';
import type { WorkflowHistoryExport } from './history-format.ts';
import { inertContext } from './inert-context.ts';
import { type ReadHistory, readHistory } from './read-history.ts';

/** How a replayed history ended. */
export interface WorkflowReplay {
  runId: string;
  workflowId: string;
  /** How many entries the history holds. */
  entries: number;
  /**
   * Where the code stopped: it returned, it threw (as the run's code may, e.g. a failed
   * step it does not catch), or it reached the end of the history while still going
   * (`waiting`: a worker would continue it live from there), or it called
   * `ctx.continueAsNew` (`continued`).
   */
  ended: 'returned' | 'threw' | 'waiting' | 'continued';
}

/** A replay's lease: long enough never to matter (nothing is held). */
const REPLAY_LEASE_MS = 60_000;

/**
 * Replays an exported history (`exportHistory`, or its JSON text) against `workflow`'s
 * current code. Resolves when the code fits the history; rejects with `WorkflowError`
 * `NONDETERMINISM` where a worker would fail the run, `CORRUPT_RUN` for a history edited
 * by hand, cut short or of an unknown format version, `INVALID_ARGUMENT` for a history
 * of another workflow. Run it in CI on histories of real runs before deploying a change.
 *
 * @example
 * ```ts
 * import { exportHistory, memoryWorkflowStore, replayHistory, worker, workflow } from 'fino:workflow';
 *
 * const order = (changed: boolean) =>
 *   workflow({
 *     id: 'order',
 *     async run(ctx) {
 *       if (changed) await ctx.step('validate', () => true);
 *       await ctx.step('charge', () => 'charged');
 *       await ctx.sleep('cool-off', 60_000);
 *       return ctx.step('ship', () => 'shipped');
 *     },
 *   });
 * const store = memoryWorkflowStore();
 * const { runId } = await order(false).start(undefined, { store });
 * await worker({ store, workflows: [order(false)] }).drain();
 * const history = await exportHistory(runId, { store });
 * console.log((await replayHistory(order(false), history)).ended); // waiting
 * await replayHistory(order(true), history).catch((error) => console.log(error.code)); // NONDETERMINISM
 * await store.close();
 * ```
 */
export async function replayHistory(
  workflow: AnyWorkflow,
  history: WorkflowHistoryExport | string,
): Promise<WorkflowReplay> {
  if (typeof workflow?.options?.run !== 'function' || typeof workflow.id !== 'string') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      'replayHistory(workflow): expected a workflow made by workflow()',
    );
  }
  return replayRead(workflow, readHistory(history));
}

/** Replays a history already read (see {@link replayHistory}). */
export async function replayRead(
  workflow: AnyWorkflow,
  { run, entries }: ReadHistory,
): Promise<WorkflowReplay> {
  if (run.workflowId !== workflow.id) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `replayHistory: the history is of workflow "${run.workflowId}" (run "${run.runId}"), not of "${workflow.id}"`,
      { runId: run.runId },
    );
  }
  const execution = new Execution(run, entries, {
    store: edgeStore(),
    owner: 'replay',
    replay: true,
    leaseMs: REPLAY_LEASE_MS,
    maxValueBytes: workflow.maxValueBytes,
    maxHistoryEntries: workflow.maxHistoryEntries,
    ...(workflow.signalNames ? { signals: workflow.signalNames } : {}),
  });
  execution.stop(); // nothing new starts: an operation the history does not hold parks
  const ctx = inertContext(execution);
  const input = fromCheckpoint(run.input);
  const end = await execution.execute(() => workflow.options.run(ctx, input));
  const replay = { runId: run.runId, workflowId: run.workflowId, entries: entries.length };
  switch (end.kind) {
    case 'fatal':
    case 'unavailable':
      throw end.error;
    case 'returned':
    case 'threw':
      return { ...replay, ended: execution.continuation ? 'continued' : end.kind };
    default:
      return { ...replay, ended: 'waiting' };
  }
}
