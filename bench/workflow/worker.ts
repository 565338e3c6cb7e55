/**
 * One worker process of the workflow benchmark (forked by `index.ts` with an IPC channel):
 * `worker.ts <variant> <url> <schema>`, the variants of `settings.ts`.
 *
 * Every variant runs the same workflow: three trivial steps, each checkpointed, returning
 * the run's input. The process connects (and migrates) before it sends `ready`; on `go`
 * it starts working; on `{ start: n }` (`dbos-direct` only: DBOS without a queue runs its
 * workflows where they are started) it starts run `n` and answers once it is recorded; on
 * `report` it sends the gaps between consecutive steps of each run it executed.
 * `BENCH_WF_EXECUTOR` is the process's name across restarts: DBOS's `executorID` (a
 * restarted DBOS process recovers its own pending workflows) and fino's worker `identity`.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { postgresWorkflowStore, worker, workflow } from '../../src/workflow/index.ts';
import {
  CONCURRENCY,
  DBOS_CONCURRENCY,
  DBOS_POLL_MS,
  DBOS_POOL,
  QUEUE,
  SHORT_LEASE_MS,
  type Variant,
  WORKFLOW_NAME,
} from './settings.ts';

const [variant, url, schema] = process.argv.slice(2) as [Variant, string, string];
const executor = process.env.BENCH_WF_EXECUTOR ?? `executor-${process.pid}`;

/** Milliseconds between step 1 → 2 and step 2 → 3 of every run executed here. */
const gaps: number[] = [];
const stepStarts = new Map<number, number[]>();
const stepRan = (run: number): void => {
  const starts = stepStarts.get(run) ?? [];
  starts.push(performance.now());
  stepStarts.set(run, starts);
  if (starts.length > 1) gaps.push(starts[starts.length - 1] - starts[starts.length - 2]);
  if (starts.length === 3) stepStarts.delete(run);
};

let begin: () => Promise<void> = async () => {};
let end: () => Promise<void>;
let startRun: (run: number) => Promise<unknown> = async () => {
  throw new Error(`${variant} starts no runs in its worker`);
};

if (variant === 'fino' || variant === 'fino-short-lease') {
  const store = postgresWorkflowStore(url, { schema });
  const threeSteps = workflow({
    id: WORKFLOW_NAME,
    async run(ctx, run: number) {
      await ctx.step('one', () => stepRan(run));
      await ctx.step('two', () => stepRan(run));
      await ctx.step('three', () => stepRan(run));
      return run;
    },
  });
  const w = worker({
    store,
    workflows: [threeSteps],
    concurrency: CONCURRENCY,
    ...(variant === 'fino' ? { identity: executor } : { leaseMs: SHORT_LEASE_MS }),
    telemetry: false,
    handleSignals: false,
  });
  await store.list({ status: 'done' }); // connects and migrates before the clock starts
  begin = () => w.start();
  end = async () => {
    await w.stop();
    await store.close();
  };
} else if (variant === 'dbos-queue' || variant === 'dbos-direct') {
  const threeSteps = DBOS.registerWorkflow(
    async (run: number) => {
      await DBOS.runStep(async () => stepRan(run), { name: 'one' });
      await DBOS.runStep(async () => stepRan(run), { name: 'two' });
      await DBOS.runStep(async () => stepRan(run), { name: 'three' });
      return run;
    },
    { name: WORKFLOW_NAME },
  );
  DBOS.setConfig({
    name: 'fino-bench',
    systemDatabaseUrl: url,
    systemDatabaseSchemaName: schema,
    systemDatabasePoolSize: DBOS_POOL,
    applicationVersion: '1',
    executorID: executor,
    logLevel: 'error',
    ...(variant === 'dbos-queue' ? { listenQueues: [QUEUE] } : {}),
  });
  await DBOS.launch();
  if (variant === 'dbos-queue') {
    await DBOS.registerQueue(QUEUE, {
      workerConcurrency: DBOS_CONCURRENCY,
      minPollingIntervalMs: DBOS_POLL_MS,
    });
  } else {
    startRun = (run) => DBOS.startWorkflow(threeSteps)(run);
  }
  end = () => DBOS.shutdown();
} else {
  throw new Error(`worker.ts: variant: expected one of settings.ts VARIANTS, received ${variant}`);
}

process.on('message', async (message: string | { start: number }) => {
  if (typeof message === 'object') {
    await startRun(message.start);
    process.send!({ started: message.start });
  }
  if (message === 'go') await begin();
  if (message === 'report') process.send!({ gaps });
  if (message === 'stop') {
    await end();
    process.send!({ stopped: true }, () => process.exit(0));
  }
});
process.send!({ ready: true });
