/**
 * The workers of isolated tasks: created on demand, one per concurrent call, and kept
 * idle (unreferenced, so they never keep the process alive) for the next call of a task
 * of the same module with the same limits.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
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

const idle = new Map<string, Worker[]>();

const keyOf = (isolation: ResolvedIsolation): string =>
  `${isolation.moduleUrl}\u0000${JSON.stringify(isolation.resourceLimits ?? {})}`;

/** A worker for a call of a task defined in `isolation.moduleUrl`: an idle one, or a new one. */
export function acquireWorker(isolation: ResolvedIsolation): Worker {
  const worker = idle.get(keyOf(isolation))?.pop();
  if (worker) {
    worker.ref();
    return worker;
  }
  return createWorker(isolation);
}

/** Returns a worker whose call finished to the idle pool (or terminates it when full). */
export function releaseWorker(isolation: ResolvedIsolation, worker: Worker): void {
  const key = keyOf(isolation);
  const workers = idle.get(key) ?? [];
  if (workers.length >= MAX_IDLE) {
    void worker.terminate();
    return;
  }
  worker.unref();
  workers.push(worker);
  idle.set(key, workers);
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
  // An idle worker that fails or exits leaves the pool.
  const leave = (): void => {
    const workers = idle.get(keyOf(isolation));
    const index = workers?.indexOf(worker) ?? -1;
    if (index !== -1) workers!.splice(index, 1);
  };
  worker.on('exit', leave);
  worker.on('error', leave);
  return worker;
}
