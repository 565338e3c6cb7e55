/** `exportHistory`: a run's history as a versioned, sealed JSON document (decision 236). */
import { unreadableEntry, WorkflowError } from '../errors.ts';
import { fromCheckpoint } from '../json-value.ts';
import { storeOf } from '../lifecycle/index.ts';
import type { HistoryEntry, StoredWorkflowRun } from '../types.ts';
import type { StoreOption } from '../workflow.ts';
import {
  HISTORY_FORMAT,
  HISTORY_VERSION,
  historyDigest,
  type WorkflowHistoryExport,
  type WorkflowHistoryExportEntry,
} from './history-format.ts';

/**
 * Exports the history of a run, as it stands, for `replayHistory` to replay against
 * changed code in a test: plain JSON, to be written to a file and kept in the repository.
 * `NOT_FOUND` for an unknown run; `CORRUPT_RUN` when a stored value cannot be read.
 *
 * @example
 * ```ts
 * import { exportHistory, memoryWorkflowStore, worker, workflow } from 'fino:workflow';
 *
 * const greet = workflow({
 *   id: 'greet',
 *   run: (ctx, name: string) => ctx.step('compose', () => `Hello, ${name}!`),
 * });
 * const store = memoryWorkflowStore();
 * const { runId } = await greet.start('Ana', { store });
 * await worker({ store, workflows: [greet] }).drain();
 * const history = await exportHistory(runId, { store });
 * console.log(history.format, history.run.status, history.entries[0].value); // fino.workflow.history done Hello, Ana!
 * await store.close();
 * ```
 */
export async function exportHistory(
  runId: string,
  options: StoreOption,
): Promise<WorkflowHistoryExport> {
  const store = storeOf(options);
  if (typeof runId !== 'string' || runId === '') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `exportHistory(runId): expected a run id, received ${typeof runId}`,
    );
  }
  const run = await store.get(runId);
  if (!run) throw new WorkflowError('NOT_FOUND', `no workflow run "${runId}"`, { runId });
  if (run.corrupt !== undefined) {
    throw new WorkflowError(
      'CORRUPT_RUN',
      `workflow run "${runId}" cannot be read: ${run.corrupt}`,
      {
        runId,
      },
    );
  }
  const entries = (await store.history(runId)).map((entry) => exportedEntry(runId, entry));
  const history: Omit<WorkflowHistoryExport, 'digest'> = {
    format: HISTORY_FORMAT,
    version: HISTORY_VERSION,
    exportedAt: new Date().toISOString(),
    run: exportedRun(run),
    codeVersions: Object.fromEntries(
      entries
        .filter((entry) => entry.kind === 'version')
        .map((entry) => [entry.id.slice(entry.id.indexOf(':') + 1), entry.value as number]),
    ),
    entries,
  };
  return { ...history, digest: historyDigest(history) };
}

/** The run's fields a replay needs, its values decoded. */
function exportedRun(run: StoredWorkflowRun): WorkflowHistoryExport['run'] {
  const exported: WorkflowHistoryExport['run'] = {
    runId: run.runId,
    workflowId: run.workflowId,
    status: run.status,
    cancelRequested: run.cancelRequested,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
  };
  if (run.key !== undefined) exported.key = run.key;
  if (run.input !== undefined) exported.input = decoded(run.runId, run.input, 'its input');
  if (run.output !== undefined) exported.output = decoded(run.runId, run.output, 'its output');
  if (run.error) exported.error = run.error;
  if (run.parentRunId !== undefined) exported.parentRunId = run.parentRunId;
  return exported;
}

/** An entry as exported: the stored fields, its value decoded. */
function exportedEntry(runId: string, entry: HistoryEntry): WorkflowHistoryExportEntry {
  const { value, ...fields } = entry;
  if (value === undefined) return fields;
  try {
    return { ...fields, value: fromCheckpoint(value) };
  } catch (error) {
    throw unreadableEntry(
      runId,
      entry.id,
      entry.seq,
      `its value is not JSON (${(error as Error).message})`,
    );
  }
}

/** A stored value of the run, decoded; `CORRUPT_RUN` when it is not JSON. */
function decoded(runId: string, text: string, what: string): unknown {
  try {
    return fromCheckpoint(text);
  } catch (error) {
    throw new WorkflowError(
      'CORRUPT_RUN',
      `workflow run "${runId}" cannot be exported: ${what} is not JSON (${(error as Error).message})`,
      { runId },
    );
  }
}
