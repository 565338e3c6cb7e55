/**
 * Runs one call of an isolated task in a worker: the deadline, the caller's abort and
 * the memory limit end it even when the executor never yields, by terminating the
 * worker.
 */
import { Worker } from 'node:worker_threads';
import { errorMessage } from '../../internal/thrown-value.ts';
import { InvalidResultError, TaskTimeoutError } from '../errors.ts';
import type { RunContextFromOptions } from '../execution-context.ts';
import type { TaskRunOptions } from '../types.ts';
import { errorName } from './error-name.ts';
import type { ResolvedIsolation } from './options.ts';
import { acquireWorker, endWorker, releaseWorker } from './pool.ts';
import { type CallData, MEMORY_WATCH_MS, type ToCaller, type ToWorker } from './protocol.ts';
import { isReentry } from './reentry.ts';

/**
 * How long a worker may go on after the caller aborted, for the executor to see
 * `ctx.signal` and return; then it is terminated. The caller does not wait for it.
 */
const ABORT_GRACE_MS = 1000;

/** A worker's heap statistics, read by the caller (Node ≥ 22.16; absent on Node 20). */
type HeapStatisticsOf = (worker: Worker) => Promise<{ external_memory?: number }>;
const heapStatisticsOf: HeapStatisticsOf | undefined =
  typeof (Worker.prototype as { getHeapStatistics?: unknown }).getHeapStatistics === 'function'
    ? (worker) =>
        (
          worker as unknown as { getHeapStatistics(): Promise<{ external_memory?: number }> }
        ).getHeapStatistics()
    : undefined;

/** A call of an isolated task. */
export interface IsolatedCall {
  name: string;
  timeoutMs: number | undefined;
  isolation: ResolvedIsolation;
  input: unknown;
  options: TaskRunOptions;
  context: RunContextFromOptions;
}

/**
 * Runs `call` in a worker (waiting for one when `maxWorkers` are busy) and settles with
 * the executor's value; rejects with a `TimeoutError` at the deadline (terminating the
 * worker), with the abort reason when the caller aborts, with the executor's error
 * (rebuilt from its name and message), or through `context.suspend()` when the executor
 * suspended. Called while a worker imports its module (a re-entry), it never settles and
 * the worker's own call fails instead.
 */
export async function runIsolated(call: IsolatedCall): Promise<unknown> {
  const { signal } = call.context;
  signal.throwIfAborted();
  if (isReentry(call.name)) return new Promise(() => {});
  const worker = await acquireWorker(call.name, call.isolation, signal);
  if (signal.aborted) {
    releaseWorker(call.isolation, worker);
    throw signal.reason;
  }
  return callInWorker(call, worker);
}

/** Runs `call` in `worker`, which it holds until the call ends. */
function callInWorker(call: IsolatedCall, worker: Worker): Promise<unknown> {
  const { name, context, isolation } = call;
  const { signal } = context;
  const memoryLimit = isolation.maxExternalMemoryMb * 2 ** 20;
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;

    const detach = (): void => {
      clearTimeout(timer);
      clearTimeout(graceTimer);
      clearInterval(watch);
      signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    /** Ends the call: the worker goes back to the pool, or is terminated. */
    const end = (keepWorker: boolean): void => {
      detach();
      if (keepWorker) releaseWorker(isolation, worker);
      else endWorker(worker);
    };
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      outcome();
    };

    const onMessage = (message: ToCaller): void => {
      if (message.type === 'started') {
        startDeadline();
        return;
      }
      if (message.type === 'write' || message.type === 'writeJson') {
        if (!settled) write(context, message);
        return;
      }
      if (message.type === 'progress') {
        if (!settled) context.progress(message.update);
        return;
      }
      if (message.type === 'memory') {
        overMemoryLimit(message.bytes);
        return;
      }
      end(message.type !== 'error' || !message.discardWorker);
      settle(() => finish(call, message, resolve, reject));
    };
    const onError = (error: Error): void => {
      detach();
      settle(() => reject(workerFailure(name, isolation, error)));
    };
    const onExit = (code: number): void => {
      detach();
      settle(() =>
        reject(new Error(`Tool "${name}": its worker exited with code ${code} before returning`)),
      );
    };
    /** The deadline counts from the executor's start: not the worker's start or the module's import. */
    const startDeadline = (): void => {
      const { timeoutMs } = call;
      if (timeoutMs === undefined || settled) return;
      timer = setTimeout(() => {
        end(false);
        settle(() => reject(new TaskTimeoutError(name, timeoutMs)));
      }, timeoutMs);
    };
    /** Ends the call when the worker holds more than its limit outside its heap. */
    const overMemoryLimit = (bytes: number): void => {
      if (settled || bytes <= memoryLimit) return;
      end(false);
      settle(() =>
        reject(
          new Error(
            `Tool "${name}" held ${Math.round(bytes / 2 ** 20)} MB outside its heap (Buffers, ArrayBuffers) in its worker, above its limit of ${isolation.maxExternalMemoryMb} MB (isolation.maxExternalMemoryMb), and was stopped`,
          ),
        ),
      );
    };
    const watch = watchMemory(worker, overMemoryLimit);
    const onAbort = (): void => {
      const reason: unknown = signal.reason;
      tellAborted(worker, reason);
      clearTimeout(timer);
      // Nobody waits for the worker any more: it must not keep the process alive.
      worker.unref();
      graceTimer = setTimeout(() => end(false), ABORT_GRACE_MS);
      graceTimer.unref();
      settle(() => reject(reason));
    };

    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      worker.postMessage({
        type: 'call',
        name,
        input: call.input,
        context: callData(call),
        maxExternalMemory: memoryLimit,
      } satisfies ToWorker);
    } catch (error) {
      end(true);
      settle(() =>
        reject(
          new TypeError(
            `Tool "${name}": its arguments or context cannot be sent to its worker (they cross by structured clone: no functions, symbols or class instances' methods): ${errorMessage(error)}`,
          ),
        ),
      );
    }
  });
}

/** Settles a call with the worker's last message: the value, the executor's error, or its suspension. */
function finish(
  call: IsolatedCall,
  message: Extract<ToCaller, { type: 'done' | 'invalid' | 'error' | 'suspend' }>,
  resolve: (value: unknown) => void,
  reject: (error: unknown) => void,
): void {
  if (message.type === 'done') resolve(message.value);
  else if (message.type === 'invalid') reject(new InvalidResultError(call.name, message.reason));
  else if (message.type === 'error') reject(rebuildError(message.name, message.message));
  else {
    try {
      call.context.suspend(message.reason, message.payload);
    } catch (error) {
      reject(error);
    }
  }
}

/**
 * Reads the worker's memory outside its heap every {@link MEMORY_WATCH_MS}: seen even
 * while its executor never yields (Node ≥ 22.16); the worker also checks itself between
 * tasks (Node 20, where this watch is absent).
 */
function watchMemory(
  worker: Worker,
  onBytes: (bytes: number) => void,
): ReturnType<typeof setInterval> | undefined {
  if (!heapStatisticsOf) return undefined;
  const read = heapStatisticsOf;
  const watch = setInterval(() => {
    read(worker).then(
      (stats) => onBytes(stats.external_memory ?? 0),
      () => {},
    );
  }, MEMORY_WATCH_MS);
  watch.unref();
  return watch;
}

/** Tells the worker its caller aborted, so the executor sees `ctx.signal` abort. */
function tellAborted(worker: Worker, reason: unknown): void {
  try {
    worker.postMessage({
      type: 'abort',
      name: errorName(reason) ?? 'AbortError',
      message: errorMessage(reason),
    } satisfies ToWorker);
  } catch {
    // The worker is gone: nothing to tell.
  }
}

/** Output the executor wrote in its worker, to the caller's writer of the same mode. */
function write(
  context: RunContextFromOptions,
  message: Extract<ToCaller, { type: 'write' | 'writeJson' }>,
): void {
  const { writer } = context;
  if (message.type === 'write' && writer.mode === 'text') writer.writeText(message.text);
  if (message.type === 'writeJson' && writer.mode === 'json') writer.writeJson(message.value);
}

function callData({ context, options }: IsolatedCall): CallData {
  return {
    toolCallId: context.toolCallId,
    step: context.step,
    runId: context.runId,
    messages: context.messages,
    resumeValue: context.resumeValue,
    idempotencyKey: context.idempotencyKey,
    mode: context.writer.mode,
    env: options.env,
    cwd: options.cwd,
  };
}

/** The executor's error as the caller sees it: its name (so control flow is recognised) and message. */
function rebuildError(name: string, message: string): Error {
  const error = new Error(message);
  if (name !== 'Error') Object.defineProperty(error, 'name', { value: name, configurable: true });
  return error;
}

/** Why a worker died: its memory limit, or an error thrown outside the call. */
function workerFailure(name: string, isolation: ResolvedIsolation, error: Error): Error {
  if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new Error(
      `Tool "${name}" ran out of memory in its worker (resourceLimits ${JSON.stringify(isolation.resourceLimits ?? {})}) and was stopped`,
    );
  }
  return new Error(`Tool "${name}": its worker failed: ${errorMessage(error)}`);
}
