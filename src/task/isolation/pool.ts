/**
 * The workers of isolated tasks: created on demand, one per running call, and kept idle
 * (unreferenced, so they never keep the process alive) for the next call of a task of
 * the same module with the same limits. At most `maxWorkers` are alive at once, running
 * or idle, counted until their thread has exited; calls beyond wait in a queue of at
 * most `maxQueuedCalls` (decision 132).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { isolationCapacity } from './capacity.ts';
import type { ResolvedIsolation } from './options.ts';
import type { WorkerData } from './protocol.ts';

/** Idle workers kept per module and limits; more are terminated when they finish. */
const MAX_IDLE = 4;

const TYPESCRIPT = /\.[cm]?tsx?$/;

/** `.ts` when fino runs from its sources (tests, tsx), `.js` when built. */
const EXTENSION = new URL(import.meta.url).pathname.endsWith('.ts') ? '.ts' : '.js';
const ENTRY = new URL(`./worker-main${EXTENSION}`, import.meta.url).href;
const FINO_HOOKS = new URL(`../../register/hooks${EXTENSION}`, import.meta.url).href;

/**
 * The worker's first code (a CommonJS script): registers tsx when fino or the defining
 * module is TypeScript, then fino's `fino:` resolve hook,
 * then imports the entry. Hooks registered later run first, as in `fino/register`.
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const { register } = require('node:module');
(async () => {
  if (workerData.typeScript) (await import(workerData.typeScript)).register();
  register(workerData.finoHooks);
  await import(workerData.entry);
})().catch((error) => { process.nextTick(() => { throw error; }); });
`;

let tsxApi: string | undefined;

/** tsx's `register` module, resolved from fino's own dependencies. */
function tsxRegisterUrl(): string {
  tsxApi ??= pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  return tsxApi;
}

/** Idle workers by pool key, the most recently used last. */
const idle = new Map<string, Worker[]>();
/** Every worker whose thread has not exited: running, idle or being terminated. */
const live = new Set<Worker>();
/** Workers asked to terminate (their slot frees when they exit). */
const ending = new WeakSet<Worker>();

/** A call waiting for a worker. */
interface Waiter {
  isolation: ResolvedIsolation;
  signal: AbortSignal;
  resolve: (worker: Worker) => void;
  reject: (reason: unknown) => void;
}
const waiting: Waiter[] = [];

const keyOf = (isolation: ResolvedIsolation): string =>
  `${isolation.moduleUrl}\u0000${JSON.stringify(isolation.resourceLimits ?? {})}`;

/** Thrown when `maxQueuedCalls` calls already wait for a worker. */
export class WorkerQueueFullError extends Error {
  override name = 'WorkerQueueFullError';
}

/**
 * A worker for a call of a task defined in `isolation.moduleUrl`: an idle one, a new one
 * when fewer than `maxWorkers` are alive, else the first to free up. Rejects with
 * `signal`'s reason when it aborts while waiting, and with a `WorkerQueueFullError` when
 * the queue is full.
 */
export function acquireWorker(
  taskName: string,
  isolation: ResolvedIsolation,
  signal: AbortSignal,
): Promise<Worker> {
  const worker = idle.get(keyOf(isolation))?.pop();
  if (worker) {
    worker.ref();
    return Promise.resolve(worker);
  }
  const { maxWorkers, maxQueuedCalls } = isolationCapacity();
  if (live.size < maxWorkers && waiting.length === 0) {
    return Promise.resolve(createWorker(isolation));
  }
  if (waiting.length >= maxQueuedCalls) {
    return Promise.reject(
      new WorkerQueueFullError(
        `Tool "${taskName}": ${waiting.length} isolated calls already wait for a worker (maxQueuedCalls ${maxQueuedCalls}, maxWorkers ${maxWorkers}); try again later or raise the limits with configureIsolation()`,
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const waiter: Waiter = { isolation, signal, resolve, reject };
    waiting.push(waiter);
    watchAbort(signal);
    pump();
  });
}

/** The abort listener of each signal some waiting call has: one, however many calls share it. */
const listeners = new WeakMap<AbortSignal, () => void>();

/** Removes the waiting calls of `signal` from the queue when it aborts, rejecting them with its reason. */
function watchAbort(signal: AbortSignal): void {
  if (listeners.has(signal)) return;
  const onAbort = (): void => {
    listeners.delete(signal);
    for (const waiter of waiting.filter((w) => w.signal === signal)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.reject(signal.reason);
    }
  };
  signal.addEventListener('abort', onAbort, { once: true });
  listeners.set(signal, onAbort);
}

/** Takes the waiting call at `index` out of the queue, dropping its signal's listener when no other waits on it. */
function takeWaiter(index: number): Waiter {
  const [waiter] = waiting.splice(index, 1);
  const { signal } = waiter;
  if (!waiting.some((w) => w.signal === signal)) {
    const onAbort = listeners.get(signal);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    listeners.delete(signal);
  }
  return waiter;
}

/**
 * Returns a worker whose call finished: to a call waiting for a worker of the same pool,
 * else to the idle pool; terminated when the pool is full or a waiting call needs the
 * slot for another pool.
 */
export function releaseWorker(isolation: ResolvedIsolation, worker: Worker): void {
  const key = keyOf(isolation);
  const next = waiting.findIndex((waiter) => keyOf(waiter.isolation) === key);
  if (next !== -1) {
    takeWaiter(next).resolve(worker);
    return;
  }
  const workers = idle.get(key) ?? [];
  if (
    workers.length >= MAX_IDLE ||
    waiting.length > 0 ||
    live.size > isolationCapacity().maxWorkers
  ) {
    endWorker(worker);
    return;
  }
  worker.unref();
  workers.push(worker);
  idle.set(key, workers);
}

/** Terminates `worker`; its slot frees when its thread has exited. */
export function endWorker(worker: Worker): void {
  if (ending.has(worker)) return;
  ending.add(worker);
  leaveIdle(worker);
  void worker.terminate();
}

/** Starts workers for waiting calls while slots are free; ends idle workers to free slots. */
function pump(): void {
  const { maxWorkers } = isolationCapacity();
  while (waiting.length > 0 && live.size < maxWorkers) {
    const waiter = takeWaiter(0);
    waiter.resolve(createWorker(waiter.isolation));
  }
  if (waiting.length === 0) return;
  let freeing = [...live].filter((worker) => ending.has(worker)).length;
  for (const workers of idle.values()) {
    for (const worker of [...workers]) {
      if (freeing >= waiting.length) return;
      endWorker(worker);
      freeing++;
    }
  }
}

function leaveIdle(worker: Worker): void {
  for (const workers of idle.values()) {
    const index = workers.indexOf(worker);
    if (index !== -1) workers.splice(index, 1);
  }
}

function createWorker(isolation: ResolvedIsolation): Worker {
  // Registered even when the worker inherits `--import tsx`: the hooks of an inherited
  // `--import` do not load fino's own TypeScript hook module, tsx registered again does.
  const typeScript = EXTENSION === '.ts' || TYPESCRIPT.test(new URL(isolation.moduleUrl).pathname);
  const workerData: WorkerData = {
    entry: ENTRY,
    moduleUrl: isolation.moduleUrl,
    typeScript: typeScript ? tsxRegisterUrl() : undefined,
    finoHooks: FINO_HOOKS,
  };
  const worker = new Worker(BOOTSTRAP, {
    eval: true,
    workerData,
    resourceLimits: isolation.resourceLimits,
  });
  live.add(worker);
  // A worker that fails leaves the idle pool; one that exits frees its slot.
  worker.on('error', () => leaveIdle(worker));
  worker.on('exit', () => {
    leaveIdle(worker);
    live.delete(worker);
    pump();
  });
  return worker;
}
