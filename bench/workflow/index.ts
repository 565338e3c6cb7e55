/**
 * fino:workflow against DBOS Transact (`@dbos-inc/dbos-sdk`) on one throwaway PostgreSQL
 * server with its durable defaults (`fsync=on`, `synchronous_commit=on`,
 * `full_page_writes=on`; printed as read back), issue 21 item 8:
 *
 * - **throughput**: workflows/s of a 3-step workflow (trivial steps) with 1, 2 and 4
 *   worker *processes* (`worker.ts`), each driving `BENCH_WF_CONCURRENCY` (8) runs at
 *   once. The workers connect first; the clock runs from the first of `BENCH_WF_RUNS`
 *   (300) runs started (fino `start`, DBOS `DBOSClient.enqueue`, 8 in flight, from this
 *   process) until the database counts all of them finished;
 * - **step latency**: the gap between consecutive steps of one run, measured inside a
 *   worker, with runs started one after another (`BENCH_WF_LATENCY_RUNS`, 40);
 * - **recovery**: 1,000 runs started, one worker SIGKILLed once `BENCH_WF_KILL_AT` (200)
 *   have finished, then a fresh worker process started; the time from its start until
 *   all 1,000 have finished (process start-up included for both peers).
 *
 * Every figure is measured `BENCH_WF_REPEATS` (3) times, peers interleaved, each trial in
 * its own schema; the tables show medians with min–max and the load average.
 * `BENCH_WF_PHASES` picks measurements (`throughput,latency,recovery`); `BENCH_WF_POLL_MS`
 * (100: fino `pollMs`, DBOS `minPollingIntervalMs`), `BENCH_WF_CONCURRENCY` (8) and
 * `BENCH_WF_LEASE_MS` (5000: fino's lease, after which a dead worker's runs are taken
 * over) are in `settings.ts`.
 *
 *     npx tsx bench/run.ts workflow
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import pg from 'pg';
import { postgresWorkflowStore, workflow } from '../../src/workflow/index.ts';
import { startPostgres } from '../../test/helpers/postgres.ts';
import { loadLine, quantile } from '../harness.ts';
import { CONCURRENCY, LEASE_MS, POLL_MS, QUEUE, WORKFLOW_NAME } from './settings.ts';

type Peer = 'fino' | 'dbos';
const PEERS: Peer[] = ['fino', 'dbos'];
const WORKERS = [1, 2, 4];
const RUNS = Number(process.env.BENCH_WF_RUNS ?? 300);
const REPEATS = Number(process.env.BENCH_WF_REPEATS ?? 3);
const LATENCY_RUNS = Number(process.env.BENCH_WF_LATENCY_RUNS ?? 40);
const RECOVERY_RUNS = Number(process.env.BENCH_WF_RECOVERY_RUNS ?? 1_000);
const KILL_AT = Number(process.env.BENCH_WF_KILL_AT ?? 200);
const IN_FLIGHT = 8;
/** The measurements to take (`BENCH_WF_PHASES`, comma-separated; default all three). */
const PHASES = (process.env.BENCH_WF_PHASES ?? 'throughput,latency,recovery').split(',');

const workerScript = fileURLToPath(new URL('./worker.ts', import.meta.url));
const server = await startPostgres({ durable: true });
if (!server)
  throw new Error(
    'bench/workflow needs PostgreSQL: set FINO_DATABASE_URL or install postgresql-15',
  );
const admin = new pg.Pool({ connectionString: server.url, max: 2 });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number, digits = 0) => n.toFixed(digits);
const median = (values: number[]) => quantile(values, 0.5);
const spread = (values: number[], digits = 0) =>
  `${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)}`;

/** A fresh schema for one trial, and how to start runs in it and count the finished ones. */
interface Trial {
  schema: string;
  start(run: number): Promise<unknown>;
  finished(): Promise<number>;
  close(): Promise<void>;
}

async function trial(peer: Peer): Promise<Trial> {
  const schema = `${peer}_${randomBytes(5).toString('hex')}`;
  if (peer === 'fino') {
    await admin.query(`CREATE SCHEMA ${schema}`);
    const store = postgresWorkflowStore(server!.url, { schema });
    const threeSteps = workflow({ id: WORKFLOW_NAME, run: async (_ctx, run: number) => run });
    await store.list({ status: 'done' }); // migrates
    return {
      schema,
      start: (run) => threeSteps.start(run, { store }),
      finished: async () =>
        Number(
          (
            await admin.query(
              `SELECT count(*) AS n FROM "${schema}".fino_workflow_runs WHERE status = 'done'`,
            )
          ).rows[0].n,
        ),
      close: () => store.close(),
    };
  }
  let client: DBOSClient | undefined;
  return {
    schema,
    async start(run) {
      client ??= await DBOSClient.create({
        systemDatabaseUrl: server!.url,
        systemDatabaseSchemaName: schema,
      });
      return client.enqueue(
        { workflowName: WORKFLOW_NAME, queueName: QUEUE, appVersion: '1' },
        run,
      );
    },
    finished: async () =>
      Number(
        (
          await admin.query(
            `SELECT count(*) AS n FROM "${schema}".workflow_status WHERE status = 'SUCCESS'`,
          )
        ).rows[0].n,
      ),
    close: async () => {
      await client?.destroy();
    },
  };
}

/** Forks one worker process and resolves once it has connected (and migrated). */
async function spawnWorker(
  peer: Peer,
  schema: string,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = fork(workerScript, [peer, server!.url, schema, String(CONCURRENCY)], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
  });
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`${peer} worker exited with ${code} before it was ready`);
    }),
  ])) as [{ ready?: boolean }];
  if (!message.ready)
    throw new Error(`${peer} worker: expected ready, received ${JSON.stringify(message)}`);
  return child;
}

async function request<T>(child: ChildProcess, message: string): Promise<T> {
  child.send(message);
  const [answer] = await once(child, 'message');
  return answer as T;
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }),
  );
}

/** Starts runs `from`…`to - 1`, `IN_FLIGHT` at a time. */
async function startRuns(t: Trial, from: number, to: number): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < to) await t.start(next++);
    }),
  );
}

async function waitFinished(t: Trial, count: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await t.finished()) < count) {
    if (Date.now() > deadline)
      throw new Error(`${t.schema}: fewer than ${count} runs finished after ${timeoutMs} ms`);
    await sleep(5);
  }
}

/** Workflows/s with `workers` processes, from the first start to the last finish. */
async function throughput(
  peer: Peer,
  workers: number,
): Promise<{ perSecond: number; load: number }> {
  const t = await trial(peer);
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < workers; i++) children.push(await spawnWorker(peer, t.schema)); // one by one: each migrates
    for (const child of children) child.send('go');
    const load = loadavg()[0];
    const started = performance.now();
    await startRuns(t, 0, RUNS);
    await waitFinished(t, RUNS);
    return { perSecond: RUNS / ((performance.now() - started) / 1000), load };
  } finally {
    await stopAll(children);
    await t.close();
  }
}

/** Gaps between consecutive steps, with runs started one after another on one worker. */
async function stepLatency(peer: Peer): Promise<number[]> {
  const t = await trial(peer);
  const child = await spawnWorker(peer, t.schema);
  try {
    child.send('go');
    for (let run = 0; run < LATENCY_RUNS; run++) {
      await t.start(run);
      await waitFinished(t, run + 1);
    }
    return (await request<{ gaps: number[] }>(child, 'report')).gaps.slice(4); // the first runs warm up
  } finally {
    await stopAll([child]);
    await t.close();
  }
}

/** Seconds from a fresh worker's start until all 1,000 runs of a SIGKILLed worker are done. */
async function recovery(
  peer: Peer,
): Promise<{ seconds: number; doneAtKill: number; load: number }> {
  const t = await trial(peer);
  const executor = { BENCH_WF_EXECUTOR: `recovery-${t.schema}` };
  let fresh: ChildProcess | undefined;
  try {
    const doomed = await spawnWorker(peer, t.schema, executor);
    await startRuns(t, 0, RECOVERY_RUNS);
    doomed.send('go');
    await waitFinished(t, KILL_AT);
    const exited = once(doomed, 'exit');
    doomed.kill('SIGKILL');
    await exited;
    const doneAtKill = await t.finished();
    const load = loadavg()[0];
    const started = performance.now();
    fresh = await spawnWorker(peer, t.schema, executor);
    fresh.send('go');
    await waitFinished(t, RECOVERY_RUNS);
    return { seconds: (performance.now() - started) / 1000, doneAtKill, load };
  } finally {
    if (fresh) await stopAll([fresh]);
    await t.close();
  }
}

try {
  const settings: string[] = [];
  for (const name of ['fsync', 'synchronous_commit', 'full_page_writes']) {
    settings.push(`${name}=${(await admin.query(`SHOW ${name}`)).rows[0][name]}`);
  }
  const { rows } = await admin.query('SHOW server_version');
  console.log(
    `PostgreSQL ${rows[0].server_version} (${settings.join(', ')}); ${CONCURRENCY} runs at once per worker process; poll ${POLL_MS} ms; fino leaseMs ${LEASE_MS}\n`,
  );

  if (PHASES.includes('throughput')) await throughputTable();
  if (PHASES.includes('latency')) await latencyTable();
  if (PHASES.includes('recovery')) await recoveryTable();
} finally {
  await admin.end();
  await server.stop();
}

async function throughputTable(): Promise<void> {
  const rates = new Map<string, number[]>();
  const loads: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    for (const workers of WORKERS) {
      for (const peer of repeat % 2 ? [...PEERS].reverse() : PEERS) {
        const { perSecond, load } = await throughput(peer, workers);
        loads.push(load);
        const key = `${peer}:${workers}`;
        rates.set(key, [...(rates.get(key) ?? []), perSecond]);
        console.error(`  ${key} ${fmt(perSecond)} workflows/s (load ${load.toFixed(2)})`);
      }
    }
  }
  console.log(
    `### workflow: ${RUNS} three-step runs, workflows/s (median of ${REPEATS}, min–max)\n`,
  );
  console.log('| worker processes | fino | DBOS Transact | fino / DBOS |');
  console.log('| --- | --- | --- | --- |');
  for (const workers of WORKERS) {
    const f = rates.get(`fino:${workers}`)!;
    const d = rates.get(`dbos:${workers}`)!;
    console.log(
      `| ${workers} | ${fmt(median(f))} (${spread(f)}) | ${fmt(median(d))} (${spread(d)}) | ${(median(f) / median(d)).toFixed(2)} |`,
    );
  }
  console.log(`\n1-min load average at the trials: ${spread(loads, 2)}; now ${loadLine()}\n`);
}

async function latencyTable(): Promise<void> {
  const gaps: Record<Peer, number[]> = { fino: [], dbos: [] };
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    for (const peer of repeat % 2 ? [...PEERS].reverse() : PEERS)
      gaps[peer].push(...(await stepLatency(peer)));
  }
  console.log(
    `### workflow: step latency, ms between consecutive steps of one run (${REPEATS} × ${LATENCY_RUNS} runs, one at a time)\n`,
  );
  console.log('| peer | median | p25–p75 | p90 | samples |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const peer of PEERS) {
    const g = gaps[peer];
    console.log(
      `| ${peer === 'fino' ? 'fino' : 'DBOS Transact'} | ${fmt(median(g), 2)} | ${fmt(quantile(g, 0.25), 2)}–${fmt(quantile(g, 0.75), 2)} | ${fmt(quantile(g, 0.9), 2)} | ${g.length} |`,
    );
  }
  console.log(`\n${loadLine()}\n`);
}

async function recoveryTable(): Promise<void> {
  const recovered: Record<Peer, { seconds: number; doneAtKill: number; load: number }[]> = {
    fino: [],
    dbos: [],
  };
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    for (const peer of repeat % 2 ? [...PEERS].reverse() : PEERS) {
      const r = await recovery(peer);
      recovered[peer].push(r);
      console.error(
        `  recovery ${peer} ${r.seconds.toFixed(2)} s (done at kill ${r.doneAtKill}, load ${r.load.toFixed(2)})`,
      );
    }
  }
  console.log(
    `### workflow: recovering ${RECOVERY_RUNS} runs after SIGKILL of the worker (${REPEATS} times)\n`,
  );
  console.log('| peer | s until all done (median, min–max) | runs done at the kill | 1-min load |');
  console.log('| --- | --- | --- | --- |');
  for (const peer of PEERS) {
    const r = recovered[peer];
    console.log(
      `| ${peer === 'fino' ? 'fino' : 'DBOS Transact'} | ${fmt(median(r.map((x) => x.seconds)), 2)} (${spread(
        r.map((x) => x.seconds),
        2,
      )}) | ${spread(r.map((x) => x.doneAtKill))} | ${spread(
        r.map((x) => x.load),
        2,
      )} |`,
    );
  }
  console.log(`\n${loadLine()}\n`);
}
