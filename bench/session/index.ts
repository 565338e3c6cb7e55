/**
 * Session throughput: suspend → approve → finish cycles on each store, and how fast
 * several workers drain approved runs from PostgreSQL (with duplicate executions
 * counted: there must be none).
 *
 *     npx tsx bench/run.ts session
 *
 * PostgreSQL: `FINO_DATABASE_URL`, or a throwaway server from the PostgreSQL 15
 * binaries (as the tests do); without either the PostgreSQL rows are left out.
 * `BENCH_DRAIN_RUNS` sets the number of runs drained (default 1000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent } from '../../src/ai/agent/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import {
  memoryStore,
  postgresStore,
  type Store,
  session,
  sqliteStore,
} from '../../src/ai/session/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';
import { freshSchema, startPostgres } from '../../test/helpers/postgres.ts';
import { compare } from '../harness.ts';

/** An agent that asks for one approved tool call, then answers; executions are counted by idempotency key. */
function refundAgent(executions: Map<string, number>) {
  const refund = tool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: v.object({ orderId: v.string() }),
    requiresApproval: true,
    execute: ({ orderId }: { orderId: string }, ctx) => {
      const key = ctx.idempotencyKey ?? '';
      executions.set(key, (executions.get(key) ?? 0) + 1);
      return `refunded ${orderId}`;
    },
  });
  const model = scriptedModel(
    Array.from(
      { length: 1_000_000 },
      () => (request: { messages: { role: string }[] }) =>
        request.messages.some((m) => m.role === 'assistant')
          ? 'Refunded.'
          : { toolCalls: [{ id: 'call_refund', name: 'refund', args: { orderId: 'o-1' } }] },
    ),
  );
  return agent({ model, tools: [refund] });
}

const dir = mkdtempSync(join(tmpdir(), 'fino-bench-session-'));
const pg = await startPostgres();
const stores: Record<string, Store> = {
  memory: memoryStore(),
  sqlite: sqliteStore(join(dir, 'bench.db')),
};
if (pg) stores.postgres = postgresStore(pg.url, { schema: await freshSchema(pg.url) });

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
  await compare('session: start → suspend → approve → done, one run', cycles, {
    baseline: 'memory',
  });

  if (pg) await drainTable(pg.url);
} finally {
  for (const store of Object.values(stores)) await store.close();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** Drains `BENCH_DRAIN_RUNS` approved runs with 1, 2 and 4 workers (each its own pool) and prints runs/s. */
async function drainTable(url: string) {
  const total = Number(process.env.BENCH_DRAIN_RUNS ?? 1000);
  const rows: string[] = [];
  for (const workers of [1, 2, 4]) {
    const schema = await freshSchema(url);
    const executions = new Map<string, number>();
    const setup = postgresStore(url, { schema });
    const runs = session({ store: setup, agent: refundAgent(executions) });
    for (let i = 0; i < total; i++) {
      const run = await runs.start('Refund o-1');
      if (run.status === 'suspended') await runs.approve(run.pending[0].token!, { defer: true });
    }
    const pools = Array.from({ length: workers }, () => postgresStore(url, { schema }));
    const started = performance.now();
    const reports = await Promise.all(
      pools.map((store, i) =>
        session({ store, agent: refundAgent(executions), workerId: `w${i}` }).drain(),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const drained = reports.reduce((sum, r) => sum + r.runs.length, 0);
    const duplicates = [...executions.values()].reduce((sum, n) => sum + n - 1, 0);
    rows.push(
      `| ${workers} | ${drained} | ${seconds.toFixed(2)} s | ${(drained / seconds).toFixed(0)} | ${duplicates} |`,
    );
    for (const store of [setup, ...pools]) await store.close();
  }
  console.log(
    [
      `### session: draining ${total} approved runs from PostgreSQL`,
      '',
      '| workers | runs drained | time | runs/s | duplicate executions |',
      '|---:|---:|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n'),
  );
}
