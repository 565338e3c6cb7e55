/**
 * Retry and fork as callers ask for them (decisions 233–235): their arguments checked,
 * the input of a fork checked against the workflow's schema when its code is at hand,
 * then one transaction of the store each (`sql/run-repairs.ts`). A worker drives the
 * run afterwards, under the code it has.
 */
import { sortableId } from '../../internal/sortable-id.ts';
import { WorkflowError } from '../errors.ts';
import { DEFAULT_MAX_VALUE_BYTES, toCheckpoint } from '../json-value.ts';
import { MAX_RUN_ID_CHARS } from '../run-id.ts';
import type { StoredWorkflowRun, WorkflowActor, WorkflowStatus, WorkflowStore } from '../types.ts';
import { checkValue, type WorkflowSettings } from '../workflow-settings.ts';
import { actorOf } from './lifecycle.ts';

/** What `fork` is asked: the step to fork from, and optionally a new input and the new run's id. */
export interface ForkOptions extends WorkflowActor {
  /** The history entry (a step's id, as `history` shows it) the new run executes again from. */
  fromStep: string;
  /** The new run's input (default: the forked run's). */
  input?: unknown;
  /** The new run's id (default `wf_…`): forking again with it returns the same run. */
  runId?: string;
}

/** What `fork` answers: the new run. */
export interface ForkedRun {
  runId: string;
  /** `false` when a fork with this `runId` had already been made from the same run and step. */
  created: boolean;
  status: WorkflowStatus;
}

/**
 * Forks `run` from `options.fromStep` into a new run (see `WorkflowStore.fork`); with
 * the workflow's `settings`, a new input is checked against its schema.
 */
export async function forkRun(
  store: WorkflowStore,
  run: StoredWorkflowRun,
  options: ForkOptions,
  settings?: WorkflowSettings,
): Promise<ForkedRun> {
  const fromStep = options?.fromStep;
  if (typeof fromStep !== 'string' || fromStep === '') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `fork: fromStep: expected the id of an entry of the run's history, received ${typeof fromStep === 'string' ? 'an empty string' : typeof fromStep}`,
    );
  }
  const runId = options.runId ?? sortableId('wf_');
  if (typeof runId !== 'string' || runId === '' || runId.length > MAX_RUN_ID_CHARS) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `fork: runId: expected a non-empty string of at most ${MAX_RUN_ID_CHARS} characters, received ${typeof runId === 'string' ? `${runId.length} characters` : typeof runId}`,
    );
  }
  const input = 'input' in options ? await forkInput(options.input, run, settings) : undefined;
  const { run: forked, created } = await store.fork(
    run.runId,
    { runId, fromStep, ...(input === undefined ? {} : { input }) },
    actorOf(options),
  );
  return { runId: forked.runId, created, status: forked.status };
}

/** A fork's new input as checkpoint text, checked by the workflow's schema when known. */
async function forkInput(
  input: unknown,
  run: StoredWorkflowRun,
  settings: WorkflowSettings | undefined,
): Promise<string | undefined> {
  const what = `the input of the fork of workflow run "${run.runId}"`;
  const { value } = await checkValue(settings?.input, input, 'INVALID_INPUT', what);
  return toCheckpoint(value, what, settings?.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES);
}
