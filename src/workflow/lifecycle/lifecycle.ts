/**
 * The lifecycle calls of a workflow's runs that `workflow()` hands out: starting a run
 * (idempotent by key), signalling it, deciding its pending calls, waiting for its
 * result, and the checks every call shares (the store passed, the run owned).
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Decision } from '../../ai/agent/index.ts';
import { canonicalJson } from '../../internal/canonical-json.ts';
import { checkDuration } from '../../internal/duration.ts';
import { sortableId } from '../../internal/sortable-id.ts';
import { WorkflowError } from '../errors.ts';
import { fromCheckpoint, toCheckpoint } from '../json-value.ts';
import { MAX_RUN_ID_CHARS } from '../run-id.ts';
import type {
  DecisionRef,
  StoredPending,
  StoredWorkflowRun,
  WorkflowActor,
  WorkflowStatus,
  WorkflowStore,
} from '../types.ts';
import type { StartOptions, StoreOption } from '../workflow.ts';
import { checkValue, type WorkflowSettings } from '../workflow-settings.ts';
import { followChain, sendToChain } from './follow-chain.ts';
import { runView } from './view.ts';

/** Creates a run of the workflow; with a `key` already used, returns that run. */
export async function startRun(
  settings: WorkflowSettings,
  input: unknown,
  options: StartOptions,
): Promise<{ runId: string; created: boolean; status: WorkflowStatus }> {
  const { id } = settings;
  const store = storeOf(options);
  const key = options.key;
  if (key !== undefined && (typeof key !== 'string' || key === '' || key.length > 512)) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `start: key: expected a non-empty string of at most 512 characters, received ${typeof key}`,
    );
  }
  const runId = options.runId ?? sortableId('wf_');
  if (typeof runId !== 'string' || runId === '' || runId.length > MAX_RUN_ID_CHARS) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `start: runId: expected a non-empty string of at most ${MAX_RUN_ID_CHARS} characters, received ${typeof runId === 'string' ? `${runId.length} characters` : typeof runId}`,
    );
  }
  const what = `the input of workflow "${id}"`;
  const { value: checked } = await checkValue(settings.input, input, 'INVALID_INPUT', what);
  const text = toCheckpoint(checked, what, settings.maxValueBytes);
  const { run, created } = await store.create({
    runId,
    workflowId: id,
    ...(key === undefined ? {} : { key }),
    ...(text === undefined ? {} : { input: text }),
    ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
    ...(options.onParentCancel === undefined ? {} : { onParentCancel: options.onParentCancel }),
    ...(settings.signalNames ? { signals: [...settings.signalNames] } : {}),
  });
  if (!created) {
    if (options.parentRunId !== undefined && run.parentRunId === options.parentRunId) {
      return { runId: run.runId, created, status: run.status }; // a replayed ctx.child
    }
    if (run.workflowId !== id || (key === undefined ? true : run.key !== key)) {
      throw new WorkflowError(
        'KEY_CONFLICT',
        `a run with id "${runId}" already exists (of workflow "${run.workflowId}")`,
        { runId },
      );
    }
    if (canonicalJson(fromCheckpoint(run.input)) !== canonicalJson(checked)) {
      throw new WorkflowError(
        'KEY_CONFLICT',
        `key "${key}" already started run "${run.runId}" of workflow "${id}" with another input; a key names one run`,
        { runId: run.runId },
      );
    }
  }
  return { runId: run.runId, created, status: run.status };
}

/** Sends a signal to a run of the workflow, its name and payload checked first. */
export async function sendSignal(
  settings: WorkflowSettings,
  options: StoreOption & { runId: string; name: string; payload?: unknown },
): Promise<void> {
  const { id, signalNames } = settings;
  const store = storeOf(options);
  const { runId, name, payload } = options;
  if (typeof name !== 'string' || name === '' || name.length > 200) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `signal: name: expected a non-empty string of at most 200 characters, received ${typeof name}`,
    );
  }
  if (signalNames) checkSignalName(id, runId, name, [...signalNames]);
  const what = `the payload of signal "${name}"`;
  const validator = settings.signals.get(name);
  const { value: checked } = await checkValue(validator, payload, 'INVALID_ARGUMENT', what);
  const text = toCheckpoint(checked, what, settings.maxValueBytes);
  await runOf(store, id, runId);
  await sendToChain(store, runId, (live) =>
    store.signal(live, name, text, settings.maxQueuedSignals),
  );
}

/** `UNKNOWN_SIGNAL` listing the declared names when `name` is not among them. */
export function checkSignalName(
  workflowId: string,
  runId: string,
  name: string,
  declared: readonly string[],
): void {
  if (declared.includes(name)) return;
  throw new WorkflowError(
    'UNKNOWN_SIGNAL',
    `workflow "${workflowId}" takes no signal "${name}"; it takes ${declared.map((s) => `"${s}"`).join(', ') || 'none'}`,
    { runId },
  );
}

/**
 * Waits for a run to end and returns its output; `RUN_FAILED` when it failed,
 * `CANCELLED` when cancelled, `TIMEOUT` after `timeoutMs`.
 */
export async function awaitResult<Output>(
  workflowId: string,
  runId: string,
  options: StoreOption & { timeoutMs?: number },
): Promise<Output> {
  const store = storeOf(options);
  const timeoutMs = checkDuration('result: timeoutMs', options.timeoutMs, 'nonNegative');
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  for (let wait = 10; ; wait = Math.min(wait * 2, 500)) {
    await runOf(store, workflowId, runId);
    const run = runView<Output>(await followChain(store, runId)); // the chain's last run
    if (run.status === 'done' && run.corrupt !== undefined) {
      throw new WorkflowError(
        'CORRUPT_RUN',
        `workflow run "${runId}" ended, but cannot be read: ${run.corrupt}`,
        { runId },
      );
    }
    if (run.status === 'done') return run.output as Output;
    if (run.status === 'error') {
      throw new WorkflowError(
        'RUN_FAILED',
        `workflow run "${runId}" failed: ${run.error?.message ?? 'unknown error'}`,
        {
          runId,
          cause: run.error,
        },
      );
    }
    if (run.status === 'cancelled') {
      throw new WorkflowError('CANCELLED', `workflow run "${runId}" was cancelled`, { runId });
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new WorkflowError(
        'TIMEOUT',
        `workflow run "${runId}" did not end within ${timeoutMs} ms (it is ${run.status})`,
        { runId },
      );
    }
    await delay(Math.min(wait, left));
  }
}

/** The run `runId` of workflow `workflowId`; `INVALID_ARGUMENT` for a bad id, `NOT_FOUND` for another's. */
export async function runOf(
  store: WorkflowStore,
  workflowId: string,
  runId: unknown,
): Promise<StoredWorkflowRun> {
  if (typeof runId !== 'string' || runId === '') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `expected a run id, received ${typeof runId === 'string' ? 'an empty string' : typeof runId}`,
    );
  }
  const run = await storeOf({ store }).get(runId);
  if (!run || run.workflowId !== workflowId) {
    throw new WorkflowError('NOT_FOUND', `no run "${runId}" of workflow "${workflowId}"`, {
      runId,
    });
  }
  return run;
}

/** Who decides, as the audit trail records it. */
export const actorOf = (options: WorkflowActor): WorkflowActor => ({
  ...(typeof options?.by === 'string' ? { by: options.by } : {}),
  ...(typeof options?.note === 'string' ? { note: options.note } : {}),
});

/** Records a decision once, with who took it. */
export function decide(
  store: WorkflowStore,
  ref: DecisionRef,
  decision: Decision,
  options: WorkflowActor,
): Promise<StoredPending> {
  if (typeof ref !== 'string' && (ref === null || typeof ref !== 'object')) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      'expected a token or { runId, decisionId } naming a pending decision',
    );
  }
  return store.decide(ref, decision, actorOf(options));
}

/** The store of a lifecycle call; `INVALID_ARGUMENT` when none was passed. */
export function storeOf(options: Partial<StoreOption> | undefined): WorkflowStore {
  const store = options?.store;
  if (!store || typeof store !== 'object' || typeof store.get !== 'function') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `expected { store } (a workflow store such as sqliteWorkflowStore()), received ${store === null ? 'null' : typeof store}`,
    );
  }
  return store;
}
