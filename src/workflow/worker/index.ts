/**
 * What drives runs: a worker (`worker.ts`) claims due runs from the store under leases,
 * renews them, and drains on stop; `drive.ts` drives one execution of a claimed run —
 * the run's code against a fresh `ctx` — and writes how it ended (as the store keeps an
 * error: `stored-error.ts`); `continue-run.ts` makes a run's `ctx.continueAsNew`.
 *
 * It imports `src/internal/`, `context/` (the `ctx` a run's code receives) and the
 * module's files at its top (`types.ts`, `json-value.ts`, `telemetry.ts`, the
 * definition's type in `workflow.ts`); never `lifecycle/`. The rest of `workflow`
 * reaches it through this file.
 */
export type { DriveEnd } from './drive.ts';
export { type DrainReport, type Worker, type WorkerOptions, worker } from './worker.ts';
