/** Settings shared by the workflow benchmark's coordinator and its worker processes. */

/** The workflow's name in both peers. */
export const WORKFLOW_NAME = 'three-steps';
/** DBOS's queue the runs are enqueued on. */
export const QUEUE = 'bench';
/** Runs each worker process drives at once (fino `concurrency`, DBOS `workerConcurrency`). */
export const CONCURRENCY = Number(process.env.BENCH_WF_CONCURRENCY ?? 8);
/** The longest wait between looks for work (fino `pollMs`, DBOS `minPollingIntervalMs`). */
export const POLL_MS = Number(process.env.BENCH_WF_POLL_MS ?? 100);
/** fino's lease (`leaseMs`): a SIGKILLed worker's runs are taken over when it expires. */
export const LEASE_MS = Number(process.env.BENCH_WF_LEASE_MS ?? 5_000);
