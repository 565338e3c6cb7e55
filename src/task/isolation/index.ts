/**
 * `task/isolation`: tasks that run in a worker thread (`isolation: 'worker'`, decision
 * 132), so that a deadline, an abort or a memory limit ends a call even when its
 * executor never yields.
 *
 * The files: the option and its resolved form (`options.ts`, with the defining module
 * read from the call stack by `defining-module.ts`) and the process-wide limits
 * (`capacity.ts`); the caller's side (`run-isolated.ts`, one call in a worker, with the
 * workers kept by `pool.ts`); the worker's side (`worker-main.ts`, the entry `pool.ts`
 * starts by URL, finding executors in `registry.ts`); what both share (the messages of
 * `protocol.ts`, the refusal of calls made while a worker imports its module,
 * `reentry.ts`, and `error-name.ts`).
 *
 * May import: the task module's own files (`../errors.ts`, `../client-requests.ts`,
 * `../progress.ts`, `../suspend-signal.ts`, and the types of `../types.ts`,
 * `../content.ts` and `../execution-context.ts`) and `src/internal/`; never
 * `../task.ts` or `../call-executor.ts`, which import this room. A worker loads
 * `src/register/hooks` by URL, not by import. The rest of `task` imports the room
 * through this file; `worker-main.ts` is not re-exported (a worker's entry, never
 * imported).
 */
export { configureIsolation, type IsolationCapacity } from './capacity.ts';
export {
  type Isolation,
  type ResolvedIsolation,
  resolveIsolation,
  type WorkerIsolation,
  type WorkerResourceLimits,
} from './options.ts';
export { registerExecutor } from './registry.ts';
export { runIsolated } from './run-isolated.ts';
