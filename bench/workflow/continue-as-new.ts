/**
 * A month-long loop (issue 31 item 4): a workflow that continues as new every
 * `BENCH_CAN_STEPS_PER_RUN` (1,000) steps, run for `BENCH_CAN_STEPS` (1,000,000) steps
 * on one SQLite file (`BENCH_CAN_DB=postgres` for a throwaway PostgreSQL server), driven
 * by one worker in this process. Every `BENCH_CAN_WINDOW` (100,000) steps it prints the
 * steps per second, this process's CPU time per step (user + system, the figure the
 * machine's load moves least), the median and p99 time between consecutive steps of a
 * run, the median continue-as-new
 * switch (last step of a run to the first of its successor), the rows the store holds
 * (runs, history entries, signals) and, on SQLite, the database's size on disk: with
 * histories pruned (`keepContinuedHistories`, default 10) these stay flat.
 *
 *     npx tsx bench/workflow/continue-as-new.ts
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import {
  postgresWorkflowStore,
  sqliteWorkflowStore,
  type WorkflowStore,
  worker,
  workflow,
} from '../../src/workflow/index.ts';
import { openSqlite } from '../../test/helpers/sqlite.ts';
import { loadLine, quantile } from '../harness.ts';
import { benchStores } from './bench-stores.ts';

const STEPS = Number(process.env.BENCH_CAN_STEPS ?? 1_000_000);
const STEPS_PER_RUN = Number(process.env.BENCH_CAN_STEPS_PER_RUN ?? 1_000);
const WINDOW = Number(process.env.BENCH_CAN_WINDOW ?? 100_000);
const ON_POSTGRES = process.env.BENCH_CAN_DB === 'postgres';

/** Step gaps (ms) and switch times of the current window. */
let gaps: number[] = [];
let switches: number[] = [];
let lastStepAt: number | undefined;
let lastStepRun: string | undefined;
let windowStart = performance.now();
let windowCpu = process.cpuUsage();
let stepsDone = 0;
const rows: string[] = [];

const loop = workflow({
  id: 'month-long-loop',
  async run(ctx, done: number) {
    for (let i = 0; i < STEPS_PER_RUN && done + i < STEPS; i++) {
      await ctx.step(`s${i}`, () => {
        const now = performance.now();
        if (lastStepAt !== undefined) {
          (lastStepRun === ctx.runId ? gaps : switches).push(now - lastStepAt);
        }
        lastStepAt = now;
        lastStepRun = ctx.runId;
        return done + i + 1;
      });
      stepsDone = done + i + 1;
      if (stepsDone % WINDOW === 0) await report(ctx.runId);
    }
    if (done + STEPS_PER_RUN >= STEPS) return STEPS;
    return ctx.continueAsNew(done + STEPS_PER_RUN);
  },
});

let store: WorkflowStore;
let sizeOf: () => Promise<{ bytes?: number; runs: number; history: number; signals: number }>;
const stores = await benchStores('fino-can-', { postgres: ON_POSTGRES });
if (ON_POSTGRES) {
  const { server } = stores;
  if (!server)
    throw new Error('BENCH_CAN_DB=postgres needs PostgreSQL (postgresql-15 or FINO_DATABASE_URL)');
  store = postgresWorkflowStore(server.url);
  const admin = new pg.Pool({ connectionString: server.url, max: 1 });
  sizeOf = async () => {
    const [{ rows: r }] = [
      await admin.query(
        `SELECT (SELECT count(*) FROM fino_workflow_runs) AS runs, (SELECT count(*) FROM fino_workflow_history) AS history,
       (SELECT count(*) FROM fino_workflow_signals) AS signals,
       pg_total_relation_size('fino_workflow_runs') + pg_total_relation_size('fino_workflow_history') + pg_total_relation_size('fino_workflow_signals') AS bytes`,
      ),
    ];
    return {
      runs: Number(r[0].runs),
      history: Number(r[0].history),
      signals: Number(r[0].signals),
      bytes: Number(r[0].bytes),
    };
  };
} else {
  const file = join(stores.dir, 'workflows.db');
  store = sqliteWorkflowStore(file);
  sizeOf = async () => {
    const db = openSqlite(file);
    const count = (table: string) =>
      Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
    const sizes = {
      runs: count('fino_workflow_runs'),
      history: count('fino_workflow_history'),
      signals: count('fino_workflow_signals'),
    };
    db.close();
    const bytes = ['', '-wal'].reduce((sum, suffix) => {
      try {
        return sum + statSync(file + suffix).size;
      } catch {
        return sum;
      }
    }, 0);
    return { ...sizes, bytes };
  };
}

/** Prints one row for the window that just ended. */
async function report(runId: string): Promise<void> {
  const size = await sizeOf();
  const seconds = (performance.now() - windowStart) / 1000;
  const cpu = process.cpuUsage(windowCpu);
  const cpuPerStep = ((cpu.user + cpu.system) / WINDOW).toFixed(0);
  const us = (ms: number) => (ms * 1000).toFixed(0);
  rows.push(
    `| ${stepsDone.toLocaleString('en')} | ${(WINDOW / seconds).toFixed(0)} | ${cpuPerStep} | ${us(quantile(gaps, 0.5))} | ${us(quantile(gaps, 0.99))} | ${switches.length > 0 ? quantile(switches, 0.5).toFixed(1) : '–'} | ${size.runs} | ${size.history} | ${size.signals} | ${size.bytes === undefined ? '–' : (size.bytes / 1024).toFixed(0)} | ${loadLine().replace(/^load average /, '')} |`,
  );
  console.log(rows.at(-1), runId);
  gaps = [];
  switches = [];
  windowStart = performance.now();
  windowCpu = process.cpuUsage();
}

console.log(
  `continue-as-new every ${STEPS_PER_RUN} steps, ${STEPS.toLocaleString('en')} steps, ${ON_POSTGRES ? 'PostgreSQL (durable)' : 'SQLite file'}, node ${process.version}, ${new Date().toISOString()}\n`,
);
const started = performance.now();
const { runId } = await loop.start(0, { store });
const w = worker({ store, workflows: [loop], pollMs: 10, handleSignals: false });
await w.start();
const result = await loop.result(runId, { store });
await w.stop();
console.log(
  `\n| steps | steps/s | CPU µs/step | step gap median µs | p99 µs | switch median ms | runs rows | history rows | signal rows | store KiB | load average |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n${rows.join('\n')}\n\nresult ${result} after ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
await store.close();
await stores.close();
process.exit(0);
