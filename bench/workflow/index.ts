/**
 * fino:workflow against DBOS Transact (`@dbos-inc/dbos-sdk`) on one throwaway PostgreSQL
 * server with its durable defaults (`fsync=on`, `synchronous_commit=on`,
 * `full_page_writes=on`; printed as read back), issues 21 and 31 (item 8). Each peer is
 * run as its user would run it (the variants of `settings.ts`: fino at its defaults with
 * an identity, fino with a short lease, DBOS tuned on a queue, DBOS without a queue):
 *
 * - **latency**: start → finished of one run at a time (`BENCH_WF_LATENCY_RUNS`, 40; the
 *   first 4 warm up), seen from this process, which starts the run (DBOS without a queue:
 *   asks the worker process to) and polls for its end every millisecond; and the gap
 *   between consecutive steps inside the worker;
 * - **throughput**: workflows/s of `BENCH_WF_RUNS` (300) runs with 1, 2 and 4 worker
 *   processes, from the first start (8 in flight) until all are finished;
 * - **recovery**: 1,000 runs started, the worker SIGKILLed once `BENCH_WF_KILL_AT` (200)
 *   have finished, a fresh process started under the same name (`BENCH_WF_EXECUTOR`: the
 *   DBOS `executorID`, fino's `identity`); seconds from its fork until all are finished.
 *
 * Every figure is measured `BENCH_WF_REPEATS` (3) times, variants interleaved, each trial
 * in its own schema; medians with min–max and the load average. `BENCH_WF_PHASES` picks
 * measurements (`latency,throughput,recovery`), `BENCH_WF_VARIANTS` the variants,
 * `BENCH_WF_WORKERS` the worker process counts (`1,2,4`).
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
import {
  CONCURRENCY,
  DBOS_CONCURRENCY,
  DBOS_POLL_MS,
  DBOS_POOL,
  isDbos,
  QUEUE,
  SHORT_LEASE_MS,
  VARIANTS,
  type Variant,
  WORKFLOW_NAME,
} from './settings.ts';

type Peer = Variant;
const PEERS: Peer[] = (process.env.BENCH_WF_VARIANTS?.split(',') as Peer[] | undefined) ?? VARIANTS;
const WORKERS = (process.env.BENCH_WF_WORKERS ?? '1,2,4').split(',').map(Number);
const RUNS = Number(process.env.BENCH_WF_RUNS ?? 300);
const REPEATS = Number(process.env.BENCH_WF_REPEATS ?? 3);
const LATENCY_RUNS = Number(process.env.BENCH_WF_LATENCY_RUNS ?? 40);
const RECOVERY_RUNS = Number(process.env.BENCH_WF_RECOVERY_RUNS ?? 1_000);
const KILL_AT = Number(process.env.BENCH_WF_KILL_AT ?? 200);
const IN_FLIGHT = 8;
/** The measurements to take (`BENCH_WF_PHASES`, comma-separated; default all three). */
const PHASES = (process.env.BENCH_WF_PHASES ?? 'latency,throughput,recovery').split(',');

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

/** Interleaved order: reversed on odd repeats. */
const order = (repeat: number) => (repeat % 2 ? [...PEERS].reverse() : PEERS);
/** `median (min–max)`. */
const summary = (values: number[], digits = 0) =>
  `${fmt(median(values), digits)} (${spread(values, digits)})`;

/** A fresh schema for one trial, and how to start runs in it and count the finished ones. */
interface Trial {
  schema: string;
  start(run: number): Promise<unknown>;
  finished(): Promise<number>;
  close(): Promise<void>;
}

async function trial(peer: Peer, workers: () => ChildProcess[]): Promise<Trial> {
  const schema = `${peer.replace(/-/g, '_')}_${randomBytes(5).toString('hex')}`;
  if (!isDbos(peer)) {
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
  const finished = async () =>
    Number(
      (
        await admin.query(
          `SELECT count(*) AS n FROM "${schema}".workflow_status WHERE status = 'SUCCESS'`,
        )
      ).rows[0].n,
    );
  if (peer === 'dbos-direct') {
    return {
      schema,
      start: (run) => {
        const all = workers();
        return startIn(all[run % all.length], run);
      },
      finished,
      close: async () => {},
    };
  }
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
    finished,
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
  const child = fork(workerScript, [peer, server!.url, schema], {
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

/** Runs a worker process was asked to start (DBOS without a queue), by run number. */
const starting = new Map<number, () => void>();
const listening = new WeakSet<ChildProcess>();

/** Asks `child` to start run `run`; resolves once it is recorded. */
function startIn(child: ChildProcess, run: number): Promise<void> {
  if (!listening.has(child)) {
    listening.add(child);
    child.on('message', (message: { started?: number }) => {
      if (message.started === undefined) return;
      starting.get(message.started)?.();
      starting.delete(message.started);
    });
  }
  return new Promise((resolve) => {
    starting.set(run, resolve);
    child.send({ start: run });
  });
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

async function waitFinished(
  t: Trial,
  count: number,
  timeoutMs = 120_000,
  everyMs = 5,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await t.finished()) < count) {
    if (Date.now() > deadline)
      throw new Error(`${t.schema}: fewer than ${count} runs finished after ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

/** Workflows/s with `workers` processes, from the first start to the last finish. */
async function throughput(
  peer: Peer,
  workers: number,
): Promise<{ perSecond: number; load: number }> {
  const children: ChildProcess[] = [];
  const t = await trial(peer, () => children);
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

/** Start → finished of runs started one after another on one worker, and the gaps between their steps. */
async function latency(peer: Peer): Promise<{ ends: number[]; gaps: number[] }> {
  let child: ChildProcess | undefined;
  const t = await trial(peer, () => [child!]);
  child = await spawnWorker(peer, t.schema);
  try {
    child.send('go');
    await sleep(1_000); // the worker's first look for work is behind it
    const ends: number[] = [];
    for (let run = 0; run < LATENCY_RUNS; run++) {
      const started = performance.now();
      await t.start(run);
      await waitFinished(t, run + 1, 120_000, 1);
      ends.push(performance.now() - started);
    }
    const { gaps } = await request<{ gaps: number[] }>(child, 'report');
    return { ends: ends.slice(4), gaps: gaps.slice(8) }; // the first runs warm up
  } finally {
    await stopAll([child]);
    await t.close();
  }
}

/** Seconds from a fresh worker's start until all 1,000 runs of a SIGKILLed worker are done. */
async function recovery(
  peer: Peer,
): Promise<{ seconds: number; doneAtKill: number; load: number }> {
  let current: ChildProcess | undefined;
  const t = await trial(peer, () => [current!]);
  const executor = { BENCH_WF_EXECUTOR: `recovery-${t.schema}` };
  let fresh: ChildProcess | undefined;
  try {
    const doomed = await spawnWorker(peer, t.schema, executor);
    current = doomed;
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
    current = fresh;
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
    `PostgreSQL ${rows[0].server_version} (${settings.join(', ')}); fino: concurrency ${CONCURRENCY} per process, short lease ${SHORT_LEASE_MS} ms; DBOS: pool ${DBOS_POOL}, queue workerConcurrency ${DBOS_CONCURRENCY}, minPollingIntervalMs ${DBOS_POLL_MS}\n`,
  );

  if (PHASES.includes('latency')) await latencyTable();
  if (PHASES.includes('throughput')) await throughputTable();
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
      for (const peer of order(repeat)) {
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
  console.log(`| worker processes | ${PEERS.join(' | ')} |`);
  console.log(`| --- |${PEERS.map(() => ' --- |').join('')}`);
  for (const workers of WORKERS) {
    const cells = PEERS.map((peer) => summary(rates.get(`${peer}:${workers}`)!));
    console.log(`| ${workers} | ${cells.join(' | ')} |`);
  }
  console.log(`\n1-min load average at the trials: ${spread(loads, 2)}; now ${loadLine()}\n`);
}

async function latencyTable(): Promise<void> {
  const ends = new Map<Peer, number[]>();
  const gaps = new Map<Peer, number[]>();
  const loads: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    for (const peer of order(repeat)) {
      loads.push(loadavg()[0]);
      const measured = await latency(peer);
      ends.set(peer, [...(ends.get(peer) ?? []), ...measured.ends]);
      gaps.set(peer, [...(gaps.get(peer) ?? []), ...measured.gaps]);
      console.error(`  latency ${peer} median ${fmt(median(measured.ends), 1)} ms`);
    }
  }
  console.log(
    `### workflow: start → finished, one run at a time on one worker (${REPEATS} × ${LATENCY_RUNS - 4} runs), and the gap between its steps, ms\n`,
  );
  console.log('| variant | start → finished: median | p25–p75 | p90 | step gap: median | p90 |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const peer of PEERS) {
    const e = ends.get(peer)!;
    const g = gaps.get(peer)!;
    console.log(
      `| ${peer} | ${fmt(median(e), 1)} | ${fmt(quantile(e, 0.25), 1)}–${fmt(quantile(e, 0.75), 1)} | ${fmt(quantile(e, 0.9), 1)} | ${fmt(median(g), 2)} | ${fmt(quantile(g, 0.9), 2)} |`,
    );
  }
  console.log(`\n1-min load average at the trials: ${spread(loads, 2)}; now ${loadLine()}\n`);
}

async function recoveryTable(): Promise<void> {
  const recovered = new Map<Peer, { seconds: number; doneAtKill: number; load: number }[]>();
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    for (const peer of order(repeat)) {
      const r = await recovery(peer);
      recovered.set(peer, [...(recovered.get(peer) ?? []), r]);
      console.error(
        `  recovery ${peer} ${r.seconds.toFixed(2)} s (done at kill ${r.doneAtKill}, load ${r.load.toFixed(2)})`,
      );
    }
  }
  console.log(
    `### workflow: recovering ${RECOVERY_RUNS} runs after SIGKILL of the worker (${REPEATS} times)\n`,
  );
  console.log(
    '| variant | s until all done (median, min–max) | runs done at the kill | 1-min load |',
  );
  console.log('| --- | --- | --- | --- |');
  for (const peer of PEERS) {
    const r = recovered.get(peer)!;
    console.log(
      `| ${peer} | ${summary(
        r.map((x) => x.seconds),
        2,
      )} | ${spread(r.map((x) => x.doneAtKill))} | ${spread(
        r.map((x) => x.load),
        2,
      )} |`,
    );
  }
  console.log(`\n${loadLine()}\n`);
}
