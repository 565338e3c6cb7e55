/**
 * Session throughput, with durability on for every store (PostgreSQL `fsync=on`,
 * `synchronous_commit=on`, `full_page_writes=on`; SQLite in WAL mode with
 * `synchronous=FULL`), as a user would run them:
 *
 * - one run's suspend → approve → done cycle on each store, timed in batches;
 * - draining approved runs with 1, 2 and 4 worker *processes* (`drain-worker.ts`),
 *   against one PostgreSQL and against one SQLite file, with duplicate executions
 *   counted by idempotency key (there must be none) and the statements each drained
 *   run costs (PostgreSQL, counted at the `pg.Pool` seam).
 *
 *     npm run bench -- session
 *
 * PostgreSQL: `FINO_DATABASE_URL` (its durability settings are reported, not changed),
 * or a throwaway server from the PostgreSQL 15 binaries with its durable defaults;
 * without either the PostgreSQL rows are left out.
 * `BENCH_DRAIN_RUNS` sets the runs per drain (default 400), `BENCH_DRAIN_REPEATS` how
 * many times each worker count is measured, interleaved (default 3).
 * `BENCH_SESSION_BASELINE=<dir>` also drains with the fino tree in `<dir>` (e.g. a
 * `git archive` of an older commit, with `node_modules` linked), interleaved with this
 * one against the same server, so that a change is compared within one run.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import {
  memoryStore,
  postgresStore,
  type Store,
  session,
  sqliteStore,
} from '../../src/ai/session/index.ts';
import { freshSchema, startPostgres } from '../../test/helpers/postgres.ts';
import { compareBatched, loadLine, quantile } from '../harness.ts';
import type { DrainWorkerReport } from './drain-worker.ts';
import { refundAgent } from './refund-agent.ts';

const WORKERS = [1, 2, 4];

/** A fino tree to drain with: its root, session module and benchmark agent. */
interface Tree {
  name: string;
  root: string;
  session: typeof import('../../src/ai/session/index.ts');
  refundAgent: typeof refundAgent;
}

async function loadTree(name: string, root: string): Promise<Tree> {
  const at = (path: string) => pathToFileURL(join(root, path)).href;
  return {
    name,
    root,
    session: await import(at('src/ai/session/index.ts')),
    refundAgent: (await import(at('bench/session/refund-agent.ts'))).refundAgent,
  };
}

const workerScript = fileURLToPath(new URL('./drain-worker.ts', import.meta.url));
const trees: Tree[] = [
  await loadTree('this tree', fileURLToPath(new URL('../../', import.meta.url))),
];
if (process.env.BENCH_SESSION_BASELINE) {
  trees.push(await loadTree('baseline', process.env.BENCH_SESSION_BASELINE));
}
const dir = mkdtempSync(join(tmpdir(), 'fino-bench-session-'));
const server = await startPostgres({ durable: true });

/** The durability settings in force on the server at `url`. */
async function durability(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const shown: string[] = [];
    for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes']) {
      const { rows } = await client.query(`SHOW ${setting}`);
      shown.push(`${setting}=${rows[0][setting]}`);
    }
    return shown.join(', ');
  } finally {
    await client.end();
  }
}

/**
 * CPU time (user + system, milliseconds) the PostgreSQL server at `url` has used so far:
 * its postmaster with the children it has reaped, and its live children, read from
 * `/proc`; `undefined` where `/proc` cannot tell (another OS, another host).
 */
async function serverCpuMs(url: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT pg_backend_pid() AS pid');
    const fields = (pid: number | string) => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    };
    // After the command name: [1] is the parent pid, [11..14] utime, stime, cutime, cstime.
    const postmaster = Number(fields(rows[0].pid)[1]);
    const ticks = (f: string[], from: number, to: number) =>
      f.slice(from, to + 1).reduce((sum, n) => sum + Number(n), 0);
    let total = ticks(fields(postmaster), 11, 14);
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || Number(entry) === postmaster) continue;
      try {
        const f = fields(entry);
        if (Number(f[1]) === postmaster) total += ticks(f, 11, 12);
      } catch {
        // the process exited meanwhile
      }
    }
    return (total * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
}

const pgUrl = server?.url;
const pgSettings = pgUrl ? await durability(pgUrl) : undefined;
let sqliteFile = 0;
const newSqlitePath = () => join(dir, `bench-${sqliteFile++}.db`);

/** Starts `total` runs and approves each with `defer`, leaving them ready for a worker. */
async function readyRuns(tree: Tree, store: Store, total: number): Promise<void> {
  const runs = tree.session.session({ store, agent: tree.refundAgent(new Map()) });
  const one = async () => {
    const run = await runs.start('Refund o-1');
    if (run.status !== 'suspended') throw new Error(`expected suspended, got ${run.status}`);
    await runs.approve(run.pending[0].token!, { defer: true });
  };
  for (let done = 0; done < total; done += 8) {
    await Promise.all(Array.from({ length: Math.min(8, total - done) }, one));
  }
}

interface DrainSample {
  tree: string;
  workers: number;
  runs: number;
  seconds: number;
  duplicates: number;
  missing: number;
  statements: DrainWorkerReport['statements'];
  commits: number;
  /** CPU milliseconds the worker processes spent draining. */
  workerCpuMs: number;
  /** CPU milliseconds the database server spent meanwhile (PostgreSQL on Linux). */
  serverCpuMs: number | undefined;
  load: number;
}

/** Readies `total` runs, forks `workers` warmed-up worker processes, and times their drain. */
async function drainOnce(
  tree: Tree,
  kind: 'postgres' | 'sqlite',
  workers: number,
  total: number,
): Promise<DrainSample> {
  const where = kind === 'postgres' ? await freshSchema(pgUrl!) : newSqlitePath();
  const setup =
    kind === 'postgres'
      ? tree.session.postgresStore(pgUrl!, { schema: where })
      : tree.session.sqliteStore(where);
  await readyRuns(tree, setup, total);
  await setup.close();
  const children = await Promise.all(
    Array.from({ length: workers }, async (_, i) => {
      const warm = kind === 'postgres' ? await freshSchema(pgUrl!) : newSqlitePath();
      const args =
        kind === 'postgres'
          ? [kind, pgUrl!, where, warm, `w${i}`]
          : [kind, where, '-', warm, `w${i}`];
      const child = fork(workerScript, args, {
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, BENCH_SESSION_ROOT: tree.root },
      });
      const [message] = (await once(child, 'message')) as [{ ready?: boolean }];
      if (!message.ready) throw new Error(`drain worker w${i} did not get ready`);
      return child;
    }),
  );
  const load = loadavg()[0];
  const serverCpuBefore = kind === 'postgres' ? await serverCpuMs(pgUrl!) : undefined;
  const started = performance.now();
  const reports = await Promise.all(
    children.map(async (child) => {
      const finished = once(child, 'message') as Promise<[DrainWorkerReport]>;
      child.send('go');
      const [report] = await finished;
      await once(child, 'exit');
      return report;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const serverCpuAfter = kind === 'postgres' ? await serverCpuMs(pgUrl!) : undefined;
  const executed = new Map<string, number>();
  const statements: DrainWorkerReport['statements'] = {};
  let commits = 0;
  let workerCpuMs = 0;
  for (const report of reports) {
    commits += report.commits;
    workerCpuMs += report.cpuMs;
    if (report.notDone > 0) throw new Error(`${report.workerId}: ${report.notDone} runs not done`);
    for (const key of report.keys) executed.set(key, (executed.get(key) ?? 0) + 1);
    for (const [what, { count, ms }] of Object.entries(report.statements)) {
      statements[what] ??= { count: 0, ms: 0 };
      const entry = statements[what];
      entry.count += count;
      entry.ms += ms;
    }
  }
  return {
    tree: tree.name,
    workers,
    runs: reports.reduce((sum, r) => sum + r.runs, 0),
    seconds,
    duplicates: [...executed.values()].reduce((sum, n) => sum + n - 1, 0),
    missing: total - executed.size,
    statements,
    commits,
    workerCpuMs,
    serverCpuMs:
      serverCpuBefore === undefined || serverCpuAfter === undefined
        ? undefined
        : serverCpuAfter - serverCpuBefore,
    load,
  };
}

/**
 * Measures every worker count with every tree `repeats` times, interleaved, and prints
 * runs/s with ratios to one worker of the same tree.
 */
async function drainTable(kind: 'postgres' | 'sqlite', settings: string): Promise<void> {
  const total = Number(process.env.BENCH_DRAIN_RUNS ?? 400);
  const repeats = Number(process.env.BENCH_DRAIN_REPEATS ?? 3);
  const samples = new Map<string, DrainSample[]>();
  const key = (tree: string, workers: number) => `${tree}|${workers}`;
  for (let r = 0; r < repeats; r++) {
    for (const workers of r % 2 ? [...WORKERS].reverse() : WORKERS) {
      for (const tree of (r + workers) % 2 ? [...trees].reverse() : trees) {
        const sample = await drainOnce(tree, kind, workers, total);
        samples.set(key(tree.name, workers), [
          ...(samples.get(key(tree.name, workers)) ?? []),
          sample,
        ]);
      }
    }
  }
  const rate = (s: DrainSample) => s.runs / s.seconds;
  const rows: string[] = [];
  const statementRows: string[] = [];
  for (const tree of trees) {
    const median1 = quantile(samples.get(key(tree.name, 1))!.map(rate), 0.5);
    for (const workers of WORKERS) {
      const list = samples.get(key(tree.name, workers))!;
      const rates = list.map(rate);
      const median = quantile(rates, 0.5);
      const runs = list.reduce((sum, s) => sum + s.runs, 0);
      const merged = new Map<string, { count: number; ms: number }>();
      for (const s of list) {
        for (const [what, { count, ms }] of Object.entries(s.statements)) {
          const entry = merged.get(what) ?? { count: 0, ms: 0 };
          merged.set(what, { count: entry.count + count, ms: entry.ms + ms });
        }
      }
      const statements = [...merged.values()].reduce((sum, e) => sum + e.count, 0);
      const commits = list.reduce((sum, s) => sum + s.commits, 0);
      const duplicates = list.reduce((sum, s) => sum + s.duplicates, 0);
      const missing = list.reduce((sum, s) => sum + s.missing, 0);
      const loads = list.map((s) => s.load.toFixed(2)).join(', ');
      const perRun = (n: number) => (kind === 'postgres' ? (n / runs).toFixed(1) : '–');
      const workerCpu = list.reduce((sum, s) => sum + s.workerCpuMs, 0) / runs;
      const serverCpus = list.map((s) => s.serverCpuMs);
      const serverCpu = serverCpus.every((ms) => ms !== undefined)
        ? `${(serverCpus.reduce((sum, ms) => sum + ms!, 0) / runs).toFixed(2)}`
        : '–';
      rows.push(
        `| ${tree.name} | ${workers} | ${median.toFixed(0)} | ${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)} | ${(median / median1).toFixed(2)}× | ${perRun(statements)} | ${perRun(commits)} | ${workerCpu.toFixed(2)} / ${serverCpu} | ${duplicates} | ${missing} | ${loads} |`,
      );
      if (kind !== 'postgres') continue;
      for (const [what, { count, ms }] of [...merged].sort((a, b) => b[1].ms - a[1].ms)) {
        statementRows.push(
          `| ${tree.name} | ${workers} | ${what} | ${(count / runs).toFixed(2)} | ${(ms / runs).toFixed(2)} |`,
        );
      }
    }
  }
  const lines = [
    `### session: draining ${total} approved runs from ${kind} (${settings}), worker processes`,
    '',
    `| tree | worker processes | runs/s (median of ${repeats}) | min–max | × 1 worker | statements per run | commits per run | CPU ms per run, workers / server | duplicate executions | runs not executed | 1-min load at start |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
  ];
  if (kind === 'postgres') {
    lines.push(
      '| tree | worker processes | statement | per drained run | ms waited per run (all workers) |',
      '|---|---:|---|---:|---:|',
      ...statementRows,
      '',
    );
  }
  lines.push(`_${loadLine()}_`, '');
  console.log(lines.join('\n'));
}

const stores: Record<string, Store> = {
  memory: memoryStore(),
  sqlite: sqliteStore(newSqlitePath()),
};
if (pgUrl) stores.postgres = postgresStore(pgUrl, { schema: await freshSchema(pgUrl) });

try {
  const cycles: Record<string, () => Promise<void>> = {};
  for (const [name, store] of Object.entries(stores)) {
    const runs = session({ store, agent: refundAgent(new Map()) });
    cycles[name] = async () => {
      const run = await runs.start('Refund o-1');
      if (run.status !== 'suspended') throw new Error(`expected suspended, got ${run.status}`);
      const done = await runs.approve(run.pending[0].token!);
      if (done.status !== 'done') throw new Error(`expected done, got ${done.status}`);
    };
  }
  await compareBatched('session: start → suspend → approve → done, one run', cycles, {
    baseline: 'memory',
    samples: 11,
    sampleMs: 50,
  });
  if (pgUrl) await drainTable('postgres', pgSettings!);
  await drainTable('sqlite', 'WAL, synchronous=FULL');
} finally {
  for (const store of Object.values(stores)) await store.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
