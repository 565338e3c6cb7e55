/**
 * Schedule ticks/s across 4 worker processes (issue 31 item 1), on PostgreSQL (durable
 * defaults) and SQLite (one file, WAL): `BENCH_SCHED_SCHEDULES` (40) schedules, each with
 * `BENCH_SCHED_TICKS` (100) missed ticks due at once (`every: 60 000`, `catchUp: 'all'`),
 * so 4 000 ticks wait when 4 worker processes (`schedule-worker.ts`, connected first)
 * get `go`. Measured from `go`: the time until every tick's run exists (fired) and until
 * every run is done (fired and run: a one-step workflow); then checked that each tick
 * has exactly one run (run count, distinct keys, each schedule's `ticksStarted`) — none
 * lost or doubled. `BENCH_SCHED_REPEATS` (3) trials per engine, each on a fresh
 * schema/file; medians with min–max and the load average.
 *
 *     npx tsx bench/workflow/schedules.ts
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  postgresWorkflowStore,
  schedules,
  sqliteWorkflowStore,
  type WorkflowStore,
} from '../../src/workflow/index.ts';
import { startPostgres } from '../../test/helpers/postgres.ts';
import { openSqlite } from '../../test/helpers/sqlite.ts';
import { loadLine, quantile } from '../harness.ts';

const SCHEDULES = Number(process.env.BENCH_SCHED_SCHEDULES ?? 40);
const TICKS = Number(process.env.BENCH_SCHED_TICKS ?? 100);
const REPEATS = Number(process.env.BENCH_SCHED_REPEATS ?? 3);
const WORKERS = 4;
const EVERY = 60_000;
const total = SCHEDULES * TICKS;
const workerScript = fileURLToPath(new URL('./schedule-worker.ts', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const server = await startPostgres({ durable: true });
if (!server)
  throw new Error(
    'bench/workflow/schedules needs PostgreSQL: set FINO_DATABASE_URL or install postgresql-15',
  );
const admin = new pg.Pool({ connectionString: server.url, max: 2 });
const dir = mkdtempSync(join(tmpdir(), 'fino-sched-bench-'));

async function spawnWorker(db: string, schema: string): Promise<ChildProcess> {
  const child = fork(workerScript, [db, schema], { execArgv: ['--import', 'tsx'] });
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`schedule worker exited with ${code} before it was ready`);
    }),
  ])) as [{ ready?: boolean }];
  if (!message.ready)
    throw new Error(`schedule worker: expected ready, received ${JSON.stringify(message)}`);
  return child;
}

/** One trial: schedules created, 4 workers started, fired and done times, then the exactly-once check. */
async function trial(engine: 'postgres' | 'sqlite', n: number) {
  const schema = `sched_${randomBytes(5).toString('hex')}`;
  const db = engine === 'postgres' ? server!.url : join(dir, `trial-${n}.db`);
  if (engine === 'postgres') await admin.query(`CREATE SCHEMA ${schema}`);
  const store: WorkflowStore =
    engine === 'postgres' ? postgresWorkflowStore(db, { schema }) : sqliteWorkflowStore(db);
  const startAt = Date.now() - (TICKS - 1) * EVERY - 1_000;
  for (let s = 0; s < SCHEDULES; s++) {
    await schedules({ store }).create({
      id: `s${s}`,
      workflow: 'tick',
      every: EVERY,
      startAt,
      catchUp: 'all',
      maxCatchUp: TICKS,
    });
  }
  const workers = await Promise.all(Array.from({ length: WORKERS }, () => spawnWorker(db, schema)));
  const raw = engine === 'sqlite' ? openSqlite(db) : undefined;
  const table = engine === 'postgres' ? `"${schema}".fino_workflow_runs` : 'fino_workflow_runs';
  /** Runs of ticks, and those done, counted by the database (cheap beside the workers). */
  const count = async (status?: 'done') => {
    const sql = `SELECT count(*) AS n FROM ${table} WHERE workflow_id = 'tick'${status ? " AND status = 'done'" : ''}`;
    const row = raw ? (raw.prepare(sql).get() as { n: number }) : (await admin.query(sql)).rows[0];
    return Number(row.n);
  };
  const began = performance.now();
  for (const worker of workers) worker.send('go');
  let firedMs = 0;
  for (;;) {
    const [runs, done] = [await count(), await count('done')];
    if (!firedMs && runs >= total) firedMs = performance.now() - began;
    if (done >= total) break;
    await sleep(25);
  }
  const doneMs = performance.now() - began;
  await Promise.all(
    workers.map(async (worker) => {
      worker.send('stop');
      await once(worker, 'exit');
    }),
  );
  const runs = await store.list({ workflowId: 'tick', limit: total + 1_000 });
  const keys = new Set(runs.map((run) => run.key));
  const started = (await schedules({ store }).list({ limit: SCHEDULES })).reduce(
    (sum, s) => sum + s.ticksStarted,
    0,
  );
  raw?.close();
  await store.close();
  return { firedMs, doneMs, runs: runs.length, distinct: keys.size, started };
}

const fmt = (values: number[], digits = 0) =>
  `${quantile(values, 0.5).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

console.log(
  `Schedule ticks across ${WORKERS} worker processes: ${SCHEDULES} schedules × ${TICKS} due ticks = ${total} ticks, ${REPEATS} trials per engine.\n`,
);
console.log('| engine | ticks fired/s | ticks fired and run/s | runs | lost | doubled | load |');
console.log('|---|---:|---:|---:|---:|---:|---|');
for (const engine of ['postgres', 'sqlite'] as const) {
  const results = [];
  for (let n = 0; n < REPEATS; n++) results.push(await trial(engine, n));
  const lost = results.reduce((sum, r) => sum + Math.max(0, total - r.distinct), 0);
  const doubled = results.reduce(
    (sum, r) => sum + (r.runs - r.distinct) + Math.max(0, r.started - r.distinct),
    0,
  );
  console.log(
    `| ${engine} | ${fmt(results.map((r) => (total / r.firedMs) * 1_000))} | ${fmt(results.map((r) => (total / r.doneMs) * 1_000))} | ${results.map((r) => r.runs).join(', ')} | ${lost} | ${doubled} | ${loadLine()} |`,
  );
}
await admin.end();
await server.stop();
