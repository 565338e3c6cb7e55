/**
 * One worker process of the workflow benchmark (forked by `index.ts` with an IPC channel):
 * `worker.ts fino <url> <schema> <concurrency>` or `worker.ts dbos <url> <schema> <concurrency>`.
 *
 * Both peers run the same workflow: three trivial steps, each checkpointed, returning the
 * run's input. fino runs it with `postgresWorkflowStore` and `worker()`; DBOS Transact
 * with `DBOS.registerWorkflow`, `DBOS.runStep` and a queue whose `workerConcurrency` is the
 * same concurrency. The process connects (and migrates) before it sends `ready`; on `go`
 * it starts working; on `report` it sends the gaps between consecutive steps of each run
 * it executed (the cost of checkpointing a step, as the workflow sees it).
 * `BENCH_WF_EXECUTOR` sets DBOS's executor id (a restarted DBOS process recovers the
 * pending workflows of its own executor id).
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { postgresWorkflowStore, worker, workflow } from '../../src/workflow/index.ts';
import { LEASE_MS, POLL_MS, QUEUE, WORKFLOW_NAME } from './settings.ts';

const [peer, url, schema, concurrencyText] = process.argv.slice(2);
const concurrency = Number(concurrencyText);

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

let begin: () => Promise<void>;
let end: () => Promise<void>;

if (peer === 'fino') {
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
    concurrency,
    pollMs: POLL_MS,
    leaseMs: LEASE_MS,
    telemetry: false,
    handleSignals: false,
  });
  await store.list({ status: 'done' }); // connects and migrates before the clock starts
  begin = () => w.start();
  end = async () => {
    await w.stop();
    await store.close();
  };
} else if (peer === 'dbos') {
  const threeSteps = DBOS.registerWorkflow(
    async (run: number) => {
      await DBOS.runStep(async () => stepRan(run), { name: 'one' });
      await DBOS.runStep(async () => stepRan(run), { name: 'two' });
      await DBOS.runStep(async () => stepRan(run), { name: 'three' });
      return run;
    },
    { name: WORKFLOW_NAME },
  );
  void threeSteps;
  DBOS.setConfig({
    name: 'fino-bench',
    systemDatabaseUrl: url,
    systemDatabaseSchemaName: schema,
    applicationVersion: '1',
    executorID: process.env.BENCH_WF_EXECUTOR ?? `executor-${process.pid}`,
    logLevel: 'error',
    listenQueues: [QUEUE],
  });
  await DBOS.launch();
  await DBOS.registerQueue(QUEUE, {
    workerConcurrency: concurrency,
    minPollingIntervalMs: POLL_MS,
  });
  begin = async () => {};
  end = () => DBOS.shutdown();
} else {
  throw new Error(`worker.ts: peer: expected fino or dbos, received ${JSON.stringify(peer)}`);
}

process.on('message', async (message: string) => {
  if (message === 'go') await begin();
  if (message === 'report') process.send!({ gaps });
  if (message === 'stop') {
    await end();
    process.send!({ stopped: true }, () => process.exit(0));
  }
});
process.send!({ ready: true });
