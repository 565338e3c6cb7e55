/**
 * Queries and updates from the caller's side (decisions 224–226): checks the call,
 * queues the request on the run it goes to, and waits until the worker that drives the
 * run has answered it — a query from the run's state, an update once it is applied and
 * recorded. An update is idempotent by its id: sending it again returns its result.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { checkDuration } from '../../internal/duration.ts';
import { sortableId } from '../../internal/sortable-id.ts';
import { WorkflowError, type WorkflowErrorCode } from '../errors.ts';
import { fromCheckpoint, toCheckpoint } from '../json-value.ts';
import { checkPrintableName } from '../printable.ts';
import type { RunRequest, StoredWorkflowRun, WorkflowStore } from '../types.ts';
import type { StoreOption } from '../workflow.ts';
import { requestAlongChain, sendToChain } from './follow-chain.ts';
import { storeOf } from './lifecycle.ts';

/** The most queries and updates a run may hold unanswered: more are refused with `UPDATE_QUEUE_FULL`. */
export const MAX_QUEUED_REQUESTS = 100;

/** How long a query or an update waits for its answer by default, in ms. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** Options of `query`. */
export interface QueryOptions extends StoreOption {
  /** How long to wait for a worker to answer (default 30 000 ms); then `TIMEOUT`. */
  timeoutMs?: number;
}

/** Options of `update`. */
export interface UpdateOptions extends QueryOptions {
  /** Names the update: sending it again returns the first one's result, never applies it twice. */
  updateId?: string;
}

/**
 * The run a query or an update goes to: `runId` — for a run that continued as new, the
 * live run of its chain (decision 230) — of workflow `workflowId` when given.
 */
export async function requestTarget(
  store: WorkflowStore,
  runId: unknown,
  workflowId?: string,
): Promise<StoredWorkflowRun> {
  if (typeof runId !== 'string' || runId === '') {
    throw new WorkflowError('INVALID_ARGUMENT', `expected a run id, received ${typeof runId}`);
  }
  const run = await store.latestInChain(runId); // a run that continued as new: its chain's live run
  if (!run || (workflowId !== undefined && run.workflowId !== workflowId)) {
    const of = workflowId === undefined ? '' : ` of workflow "${workflowId}"`;
    throw new WorkflowError('NOT_FOUND', `no run "${runId}"${of}`, { runId });
  }
  return run;
}

/** Sends query `name` to the run and returns its answer. */
export async function sendQuery(
  runId: string,
  name: string,
  args: unknown,
  options: QueryOptions,
  workflowId?: string,
): Promise<unknown> {
  const request = await queue('query', runId, name, args, options, sortableId('qry_'), workflowId);
  let heldBy = request.runId;
  try {
    return await answerOf(storeOf(options), request, options.timeoutMs, (moved) => {
      heldBy = moved;
    });
  } finally {
    await storeOf(options)
      .dropRequest(heldBy, request.requestId)
      .catch(() => {});
  }
}

/** Sends update `name` to the run (once per `updateId`) and returns its result once applied. */
export async function sendUpdate(
  runId: string,
  name: string,
  args: unknown,
  options: UpdateOptions,
  workflowId?: string,
): Promise<unknown> {
  const updateId = options.updateId ?? sortableId('upd_');
  checkPrintableName(updateId, 'update: updateId');
  const request = await queue('update', runId, name, args, options, updateId, workflowId);
  return answerOf(storeOf(options), request, options.timeoutMs);
}

/** Checks the call and queues the request on its run. */
async function queue(
  kind: 'query' | 'update',
  runId: string,
  name: string,
  args: unknown,
  options: QueryOptions,
  requestId: string,
  workflowId: string | undefined,
): Promise<RunRequest> {
  const store = storeOf(options);
  checkPrintableName(name, `${kind}: name`);
  checkDuration(`${kind}: timeoutMs`, options.timeoutMs, 'nonNegative');
  const text = toCheckpoint(args, `the arguments of ${kind} "${name}"`, 2 * 1024 * 1024);
  await requestTarget(store, runId, workflowId);
  return sendToChain(store, runId, (liveRunId) =>
    store.sendRequest(
      {
        runId: liveRunId,
        requestId,
        kind,
        name,
        ...(text === undefined ? {} : { args: text }),
      },
      MAX_QUEUED_REQUESTS,
    ),
  );
}

/**
 * Waits for the request's answer: its result, or its failure thrown with its code. A
 * request whose run continued as new before answering it is followed to the run it moved
 * to (decision 254); `onMoved` learns that run.
 */
async function answerOf(
  store: WorkflowStore,
  sent: RunRequest,
  timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  onMoved: (runId: string) => void = () => {},
): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  let request = sent;
  const what = `${request.kind} "${request.name}" of workflow run "${request.runId}"`;
  for (let wait = 2, round = 0; ; wait = Math.min(wait * 2, 100), round++) {
    let now = round === 0 ? request : await store.getRequest(request.runId, request.requestId);
    if (!now) {
      now = await requestAlongChain(store, request.runId, request.requestId);
      if (now) {
        request = now;
        onMoved(now.runId);
      }
    }
    if (!now) throw new WorkflowError('NOT_FOUND', `${what} is gone`, { runId: request.runId });
    if (now.state === 'done') return fromCheckpoint(now.result);
    if (now.state === 'failed') {
      const code = (now.error?.code ?? 'QUERY_FAILED') as WorkflowErrorCode;
      throw new WorkflowError(code, `${what}: ${now.error?.message}`, { runId: request.runId });
    }
    if (round % 10 === 9) await checkStillRunning(store, request, what);
    const left = deadline - Date.now();
    if (left <= 0) {
      const again =
        request.kind === 'update'
          ? ' (it stays queued: send it again with the same updateId to get its result)'
          : '';
      throw new WorkflowError(
        'TIMEOUT',
        `${what} was not answered within ${timeoutMs} ms: a worker answers it when the run waits${again}`,
        { runId: request.runId },
      );
    }
    await delay(Math.min(wait, left));
  }
}

/** `RUN_FINISHED` when the run ended before it answered the request. */
async function checkStillRunning(
  store: WorkflowStore,
  request: RunRequest,
  what: string,
): Promise<void> {
  const run = await store.get(request.runId);
  if (run && run.status !== 'running' && run.status !== 'waiting') {
    const again = await store.getRequest(request.runId, request.requestId);
    if (again?.state !== 'open') return;
    throw new WorkflowError(
      'RUN_FINISHED',
      `${what} was not answered: the run ended (${run.status})${retryHint(request, run)}`,
      {
        runId: request.runId,
      },
    );
  }
}

/** For an update of a failed run: it stays queued, and a retry of the run answers it. */
const retryHint = (request: RunRequest, run: StoredWorkflowRun): string =>
  request.kind === 'update' && run.status === 'error'
    ? '; the update stays queued: once the run is retried, send it again with the same updateId for its result'
    : '';
