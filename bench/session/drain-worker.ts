/**
 * One drain worker process of the session benchmark (forked by `index.ts` with an IPC
 * channel): `drain-worker.ts postgres <url> <schema> <warm-up schema> <id>` or
 * `drain-worker.ts sqlite <path> - <warm-up path> <id>`.
 *
 * It opens its store, warms up (JIT, connections) by starting, approving and draining
 * `BENCH_DRAIN_WARMUP` runs of its own in the warm-up schema (or SQLite file), then
 * sends `ready`. On `go` it drains, and sends back
 * how many runs it finished, every idempotency key it executed, and (PostgreSQL) every
 * statement it sent, counted at the `pg.Pool` seam the store is given.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { PgPoolLike, Store } from '../../src/ai/session/index.ts';

/** The fino tree to drain with (`BENCH_SESSION_ROOT`, default this one). */
const root = process.env.BENCH_SESSION_ROOT ?? join(import.meta.dirname, '..', '..');
const at = (path: string) => pathToFileURL(join(root, path)).href;
const { postgresStore, session, sqliteStore }: typeof import('../../src/ai/session/index.ts') =
  await import(at('src/ai/session/index.ts'));
const { refundAgent }: typeof import('./refund-agent.ts') = await import(
  at('bench/session/refund-agent.ts')
);

/** What a worker reports when its drain ends. */
export interface DrainWorkerReport {
  workerId: string;
  runs: number;
  notDone: number;
  keys: string[];
  /** Statements sent (BEGIN and COMMIT included) by their verb and table: how many, and the milliseconds waited for them. */
  statements: Record<string, { count: number; ms: number }>;
  /** Durable commits: each `COMMIT`, and each write sent outside a transaction (it commits alone). */
  commits: number;
  /** CPU time (user + system) this process spent draining, in milliseconds. */
  cpuMs: number;
}

const [kind, target, schema, warmWhere, workerId] = process.argv.slice(2);
const statements: DrainWorkerReport['statements'] = {};
let commits = 0;
let counting = false;

/** Names a statement by its verb and table, e.g. `UPDATE fino_runs`. */
const label = (sql: string): string => {
  const words = sql
    .replace(/"[^"]*"\./g, '')
    .trim()
    .split(/\s+/);
  const table = words.find((w) => w.startsWith('fino_')) ?? '';
  return `${words[0]}${/SKIP LOCKED/.test(sql) ? ' … SKIP LOCKED' : ''} ${table}`.trim();
};

/** Sends a statement, counting it and the time it took while the drain is measured. */
async function counted<T>(sql: string, send: () => Promise<T>): Promise<T> {
  if (!counting) return send();
  const started = performance.now();
  try {
    return await send();
  } finally {
    const what = label(sql);
    statements[what] ??= { count: 0, ms: 0 };
    const entry = statements[what];
    entry.count++;
    entry.ms += performance.now() - started;
  }
}

/** A `pg.Pool` that counts and times every statement sent through it or its clients. */
function countingPool(pool: pg.Pool): PgPoolLike {
  return {
    query: (text, values) => {
      if (counting && /^\s*(UPDATE|INSERT|DELETE)\b/i.test(text)) commits++;
      return counted(text, () => pool.query(text, values));
    },
    async connect() {
      const client = await pool.connect();
      return {
        query: (text: string, values?: unknown[]) => {
          if (counting && /^\s*COMMIT\b/i.test(text)) commits++;
          return counted(text, () => client.query(text, values));
        },
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}

const pools: pg.Pool[] = [];
const open = (where: string): Store => {
  if (kind === 'sqlite') return sqliteStore(where);
  const pool = new pg.Pool({ connectionString: target, max: 4 });
  pool.on('error', () => {});
  pools.push(pool);
  return postgresStore(countingPool(pool), { schema: where });
};

async function warmUp(): Promise<void> {
  const runs = Number(process.env.BENCH_DRAIN_WARMUP ?? 50);
  const store = open(warmWhere);
  const worker = session({ store, agent: refundAgent(new Map()), workerId: `${workerId}-warm` });
  for (let i = 0; i < runs; i++) {
    const run = await worker.start('Refund o-1');
    if (run.status === 'suspended') await worker.approve(run.pending[0].token!, { defer: true });
  }
  await worker.drain();
  await store.close();
}

await warmUp();
const store = open(kind === 'sqlite' ? target : schema);
await store.get('warm-up'); // connects and checks the schema before the clock starts
const executions = new Map<string, number>();
const worker = session({ store, agent: refundAgent(executions), workerId });
process.send!({ ready: true });
process.once('message', async () => {
  counting = true;
  const cpu = process.cpuUsage();
  const report = await worker.drain();
  const { user, system } = process.cpuUsage(cpu);
  counting = false;
  const keys: string[] = [];
  for (const [key, n] of executions) for (let i = 0; i < n; i++) keys.push(key);
  const result: DrainWorkerReport = {
    workerId,
    runs: report.runs.length,
    notDone: report.runs.filter((r) => r.status !== 'done').length,
    keys,
    statements,
    commits,
    cpuMs: (user + system) / 1000,
  };
  await store.close();
  for (const pool of pools) await pool.end().catch(() => {});
  process.send!(result, () => process.exit(0));
});
