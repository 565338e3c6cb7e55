/**
 * Query and update latency of `fino:workflow` (issue 31 item 2): the time from
 * `wf.query` / `wf.update` until the caller has the answer, against a waiting run whose
 * worker (in this process, `pollMs` `BENCH_REQ_POLL_MS`, 20) answers it when woken —
 * so a figure is one claim, one replay of the run, the answer and the caller's polls. The
 * run's history grows by one entry per update. On SQLite (a file) and on a throwaway
 * PostgreSQL server with its durable defaults. `BENCH_REQ_COUNT` (200) requests of each
 * kind, one after another; the table shows the median, p90 and min–max, and the load.
 *
 *     npx tsx bench/workflow/requests.ts
 */
import { type WorkflowStore, worker, workflow } from '../../src/workflow/index.ts';
import { loadLine, quantile } from '../harness.ts';
import { benchStores } from './bench-stores.ts';

const COUNT = Number(process.env.BENCH_REQ_COUNT ?? 200);
const POLL_MS = Number(process.env.BENCH_REQ_POLL_MS ?? 20);

const counter = workflow({
  id: 'bench-counter',
  maxHistoryEntries: COUNT + 10,
  async run(ctx) {
    let count = 0;
    ctx.onQuery('count', () => count);
    ctx.onUpdate('add', (n: number) => (count += n));
    await ctx.waitForSignal('stop');
    return count;
  },
});

/** Milliseconds of each call of `call`, one after another. */
async function timed(call: (i: number) => Promise<unknown>): Promise<number[]> {
  const took: number[] = [];
  for (let i = 0; i < COUNT; i++) {
    const start = performance.now();
    await call(i);
    took.push(performance.now() - start);
  }
  return took;
}

const row = (what: string, ms: number[]) =>
  `| ${what} | ${quantile(ms, 0.5).toFixed(1)} | ${quantile(ms, 0.9).toFixed(1)} | ${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)} |`;

async function measure(engine: string, store: WorkflowStore): Promise<string[]> {
  const w = worker({ store, workflows: [counter], pollMs: POLL_MS, handleSignals: false });
  await w.start();
  try {
    const { runId } = await counter.start(undefined, { store });
    await counter.query(runId, 'count', undefined, { store }); // parked, taking requests
    const queries = await timed(() => counter.query(runId, 'count', undefined, { store }));
    const updates = await timed((i) =>
      counter.update(runId, 'add', 1, { store, updateId: `u${i}` }),
    );
    const again = await timed((i) => counter.update(runId, 'add', 1, { store, updateId: `u${i}` }));
    if ((await counter.query(runId, 'count', undefined, { store })) !== COUNT)
      throw new Error('an update was lost or applied twice');
    return [
      row(`${engine}: query`, queries),
      row(`${engine}: update`, updates),
      row(`${engine}: update sent again (same id, answered from the store)`, again),
    ];
  } finally {
    await w.stop();
  }
}

const lines = ['| request | median ms | p90 ms | min–max ms |', '|---|---|---|---|'];
const stores = await benchStores('fino-bench-requests-');
for (const [engine, open] of stores.engines) {
  const store = await open();
  lines.push(...(await measure(engine, store)));
  await store.close();
}
await stores.close();
console.log(lines.join('\n'));
console.log(
  `\n${COUNT} requests of each kind, pollMs ${POLL_MS}; ${loadLine()}; Node ${process.version}`,
);
