/** Settings shared by the workflow benchmark's coordinator and its worker processes. */

/** The workflow's name in both peers. */
export const WORKFLOW_NAME = 'three-steps';
/** DBOS's queue the runs are enqueued on (the `dbos-queue` variant). */
export const QUEUE = 'bench';

/**
 * The configurations compared, each as its user would run it:
 *
 * - `fino`: `worker()` at its defaults (`pollMs` 1 000, `leaseMs` 30 000, woken by
 *   `LISTEN/NOTIFY`) with an `identity`, so a restarted worker takes its runs back at once;
 * - `fino-short-lease`: the same with `leaseMs` 5 000 and no identity: a fresh worker takes
 *   a dead one's runs over when their leases expire;
 * - `dbos-queue`: DBOS Transact tuned: runs enqueued on a queue whose `workerConcurrency`
 *   is raised (`BENCH_WF_DBOS_CONCURRENCY`, 32) and polled every `BENCH_WF_DBOS_POLL_MS`
 *   (10) ms, a system-database pool of 20;
 * - `dbos-direct`: DBOS without a queue: `DBOS.startWorkflow` in the worker process itself
 *   (runs do not spread over processes), a pool of 20.
 */
export type Variant = 'fino' | 'fino-short-lease' | 'dbos-queue' | 'dbos-direct';
export const VARIANTS: Variant[] = ['fino', 'fino-short-lease', 'dbos-queue', 'dbos-direct'];

/** Runs each fino worker process drives at once (`concurrency`). */
export const CONCURRENCY = Number(process.env.BENCH_WF_CONCURRENCY ?? 8);
/** fino's short lease (`fino-short-lease`). */
export const SHORT_LEASE_MS = Number(process.env.BENCH_WF_LEASE_MS ?? 5_000);
/** DBOS's tuned queue: `workerConcurrency` per process and `minPollingIntervalMs`. */
export const DBOS_CONCURRENCY = Number(process.env.BENCH_WF_DBOS_CONCURRENCY ?? 32);
export const DBOS_POLL_MS = Number(process.env.BENCH_WF_DBOS_POLL_MS ?? 10);
/** DBOS's system-database pool (`systemDatabasePoolSize`, default 10). */
export const DBOS_POOL = 20;

/** Whether a variant is DBOS's. */
export const isDbos = (variant: Variant): boolean => variant.startsWith('dbos');
