/**
 * Reading an exported history back (decision 236): its format and version, its digest,
 * then the shape of the run and of every entry, each as the store would hold it. Anything
 * wrong is a `CORRUPT_RUN` naming what was wrong and what was expected — never a crash.
 */
import { describeValue } from '../../internal/describe-value.ts';
import { WorkflowError } from '../errors.ts';
import { entryProblem, STATUSES } from '../sql/index.ts';
import type { HistoryEntry, StoredWorkflowRun, WorkflowStatus } from '../types.ts';
import { HISTORY_FORMAT, HISTORY_VERSION, historyDigest } from './history-format.ts';

/** A history read back: the run and its entries as a store returns them. */
export interface ReadHistory {
  run: StoredWorkflowRun;
  entries: HistoryEntry[];
}

const corrupt = (why: string, runId?: string): WorkflowError =>
  new WorkflowError('CORRUPT_RUN', `the workflow history cannot be replayed: ${why}`, {
    ...(runId === undefined ? {} : { runId }),
  });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The history `given` holds (an exported history, or its JSON text); `CORRUPT_RUN` when it holds none. */
export function readHistory(given: unknown): ReadHistory {
  const history = parsed(given);
  if (!isObject(history) || history.format !== HISTORY_FORMAT) {
    throw corrupt(
      `expected an object of format "${HISTORY_FORMAT}" (written by exportHistory), received ${describeValue(isObject(history) ? history.format : history)}`,
    );
  }
  if (history.version !== HISTORY_VERSION) {
    throw corrupt(
      `its format version (${describeValue(history.version)}) is not one this fino reads (it reads version ${HISTORY_VERSION}); export the history again with this fino`,
    );
  }
  if (history.digest !== historyDigest(history)) {
    throw corrupt(
      'its digest does not match its content: it was edited or cut short after exportHistory wrote it; export it again',
    );
  }
  const run = storedRun(history.run);
  if (!Array.isArray(history.entries)) throw corrupt('its entries are not an array', run.runId);
  return { run, entries: storedEntries(run.runId, history.entries) };
}

/** `given` as plain JSON data: text parsed, an object copied through JSON. */
function parsed(given: unknown): unknown {
  try {
    return JSON.parse(typeof given === 'string' ? given : (JSON.stringify(given) ?? 'null'));
  } catch (error) {
    throw corrupt(`it is not JSON (${(error as Error).message}): was the file cut short?`);
  }
}

/** The run of a history as a store returns it. */
function storedRun(run: unknown): StoredWorkflowRun {
  if (!isObject(run)) throw corrupt(`its run is ${describeValue(run)}, not an object`);
  const { runId, workflowId, status } = run;
  if (typeof runId !== 'string' || runId === '') throw corrupt('its run has no runId');
  if (typeof workflowId !== 'string' || workflowId === '') {
    throw corrupt('its run has no workflowId', runId);
  }
  if (!STATUSES.includes(status as WorkflowStatus)) {
    throw corrupt(
      `its run's status ${describeValue(status)} is not one of ${STATUSES.join(', ')}`,
      runId,
    );
  }
  if (typeof run.cancelRequested !== 'boolean') {
    throw corrupt("its run's cancelRequested is not a boolean", runId);
  }
  return {
    runId,
    workflowId,
    status: status as WorkflowStatus,
    cancelRequested: run.cancelRequested,
    createdAt: 0,
    updatedAt: 0,
    ...(run.input === undefined ? {} : { input: JSON.stringify(run.input) }),
  };
}

/** The entries of a history as a store returns them: each well formed, ids and seqs unique. */
function storedEntries(runId: string, entries: readonly unknown[]): HistoryEntry[] {
  const ids = new Set<string>();
  const seqs = new Set<number>();
  return entries.map((given, index) => {
    const at = `entry ${index + 1}`;
    if (!isObject(given)) throw corrupt(`${at} is ${describeValue(given)}, not an object`, runId);
    const { id, seq, value, ...body } = given;
    if (typeof id !== 'string' || id === '') throw corrupt(`${at} has no id`, runId);
    if (!Number.isSafeInteger(seq) || (seq as number) < 1) {
      throw corrupt(`${at} ("${id}") has seq ${describeValue(seq)}, not a whole number ≥ 1`, runId);
    }
    if (ids.has(id)) throw corrupt(`${at} repeats the id "${id}"`, runId);
    if (seqs.has(seq as number)) throw corrupt(`${at} ("${id}") repeats seq ${seq}`, runId);
    ids.add(id);
    seqs.add(seq as number);
    const entry = {
      ...body,
      id,
      seq,
      ...(value === undefined ? {} : { value: JSON.stringify(value) }),
    };
    const problem = entryProblem(entry);
    if (problem) throw corrupt(`${at} ("${id}"): ${problem}`, runId);
    return entry as HistoryEntry;
  });
}
