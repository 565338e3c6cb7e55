/**
 * The entry of an isolated task's worker: imports the defining module once, then runs
 * each call it is sent with the executor that module registered, and answers with a
 * message the caller turns back into a result, an error or a suspension.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../../internal/thrown-value.ts';
import { checkedLog, noElicitation, noRoots, noSampling } from '../client-requests.ts';
import { checkProgress } from '../progress.ts';
import { SuspendSignal } from '../suspend-signal.ts';
import type { SuspendFn, TaskRunContext, Writer } from '../types.ts';
import { errorName } from './error-name.ts';
import {
  type CallData,
  MEMORY_WATCH_MS,
  type ToCaller,
  type ToWorker,
  type WorkerData,
} from './protocol.ts';
import { importRefusingCalls, reentryMessage } from './reentry.ts';
import { executorNames, findExecutor } from './registry.ts';

/** The worker's own call failed because its module calls an isolated task at its top level. */
class ReentryError extends Error {}

const port = parentPort!;
const { moduleUrl } = workerData as WorkerData;
let loaded: Promise<unknown> | undefined;
let controller: AbortController | undefined;

const send = (message: ToCaller): void => port.postMessage(message);

const throwSuspendSignal: SuspendFn = (reasonOrRequest, payload) => {
  throw new SuspendSignal(reasonOrRequest, payload);
};

function writerFor(mode: CallData['mode']): Writer {
  return mode === 'json'
    ? { mode, writeJson: (value) => send({ type: 'writeJson', value }) }
    : { mode, writeText: (text) => send({ type: 'write', text: String(text) }) };
}

async function executorFor(
  name: string,
): Promise<(input: unknown, ctx: TaskRunContext) => unknown> {
  loaded ??= new Promise((resolve, reject) => {
    importRefusingCalls(
      () => import(moduleUrl),
      (called) => reject(new ReentryError(reentryMessage(moduleUrl, called))),
    ).then(resolve, reject);
  });
  await loaded;
  const run = findExecutor(moduleUrl, name);
  if (run) return run as unknown as (input: unknown, ctx: TaskRunContext) => unknown;
  const found = executorNames(moduleUrl);
  throw new Error(
    `Isolated task "${name}" was not found in ${moduleUrl}: a worker imports that module and expects it to construct the task at its top level (not inside a function that is called later)${found.length > 0 ? `; it defines ${found.map((n) => JSON.stringify(n)).join(', ')}` : ''}`,
  );
}

async function call(
  name: string,
  input: unknown,
  data: CallData,
  maxExternalMemory: number,
): Promise<void> {
  controller = new AbortController();
  // The caller reads this worker's memory itself where Node lets it (even while the
  // executor never yields); this check, between the worker's tasks, covers Node 20.
  const watch = setInterval(() => {
    const bytes = getHeapStatistics().external_memory;
    if (bytes > maxExternalMemory) send({ type: 'memory', bytes });
  }, MEMORY_WATCH_MS);
  const ctx: TaskRunContext = {
    signal: controller.signal,
    toolCallId: data.toolCallId,
    step: data.step,
    runId: data.runId,
    messages: data.messages,
    suspend: throwSuspendSignal,
    resumeValue: data.resumeValue,
    idempotencyKey: data.idempotencyKey,
    progress: (update) => send({ type: 'progress', update: checkProgress(update) }),
    // A worker has no channel for these yet: log messages are checked and dropped.
    log: checkedLog(undefined),
    sample: noSampling,
    elicit: noElicitation,
    listRoots: noRoots,
    writer: writerFor(data.mode),
    env: data.env ?? process.env,
    cwd: data.cwd ?? process.cwd(),
  };
  let value: unknown;
  try {
    const run = await executorFor(name);
    send({ type: 'started' });
    value = await run(input, ctx);
  } catch (error) {
    return failed(error);
  } finally {
    clearInterval(watch);
  }
  try {
    send({ type: 'done', value });
  } catch (error) {
    send({ type: 'invalid', reason: `it cannot be sent from its worker: ${errorMessage(error)}` });
  }
}

function failed(error: unknown): void {
  if (error instanceof ReentryError) {
    send({ type: 'error', name: 'Error', message: error.message, discardWorker: true });
    return;
  }
  if (error instanceof SuspendSignal || errorName(error) === 'SuspendSignal') {
    const { message, payload } = error as SuspendSignal;
    try {
      send({ type: 'suspend', reason: String(message), payload });
    } catch (cloneError) {
      send({
        type: 'error',
        name: 'Error',
        message: `suspend: the payload cannot be sent from the worker: ${errorMessage(cloneError)}`,
      });
    }
    return;
  }
  send({ type: 'error', name: errorName(error) ?? 'Error', message: errorMessage(error) });
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'abort') {
    controller?.abort(new DOMException(message.message, message.name));
    return;
  }
  void call(message.name, message.input, message.context, message.maxExternalMemory);
});
