/**
 * Stream throughput of `fino:workflow` (issue 31, item 3): chunks/s a run writes with
 * `ctx.writeStream`, and chunks/s a caller reads with `readStream` — catching up on a
 * closed stream, and following it live while the run writes (the reader in the worker's
 * process, woken by each write). On SQLite (a file, WAL) and PostgreSQL (a throwaway
 * server with its durable defaults). Each chunk is a transaction of its own under the
 * run's lease. `BENCH_STREAM_CHUNKS` (2 000) chunks of ~50 bytes per run,
 * `BENCH_STREAM_REPEATS` (5) trials per engine; medians with min–max and the load average.
 *
 *     npx tsx bench/workflow/streams.ts
 */
import { type WorkflowStore, worker, workflow } from '../../src/workflow/index.ts';
import { loadLine, quantile } from '../harness.ts';
import { benchStores } from './bench-stores.ts';

const CHUNKS = Number(process.env.BENCH_STREAM_CHUNKS ?? 2_000);
const REPEATS = Number(process.env.BENCH_STREAM_REPEATS ?? 5);

const writer = workflow({
  id: 'stream-writer',
  async run(ctx, count: number) {
    for (let n = 0; n < count; n++) {
      await ctx.writeStream('tokens', `token ${n} of the answer, about fifty bytes`);
    }
    await ctx.closeStream('tokens');
  },
});

interface Trial {
  write: number;
  read: number;
  live: number;
}

/** One trial on a fresh store: write a stream while a reader follows it, then read it again whole. */
async function trial(store: WorkflowStore): Promise<Trial> {
  const { runId } = await writer.start(CHUNKS, { store });
  let lastChunkAt = 0;
  let firstChunkAt = 0;
  const following = (async () => {
    let n = 0;
    for await (const _chunk of writer.readStream(runId, 'tokens', { store })) {
      if (n++ === 0) firstChunkAt = performance.now();
      lastChunkAt = performance.now();
    }
    return n;
  })();
  const started = performance.now();
  await worker({ store, workflows: [writer] }).drain();
  const written = performance.now();
  if ((await following) !== CHUNKS) throw new Error('the live reader missed chunks');
  const readFrom = performance.now();
  let n = 0;
  for await (const _chunk of writer.readStream(runId, 'tokens', { store })) n++;
  const read = performance.now();
  if (n !== CHUNKS) throw new Error('the reader missed chunks');
  return {
    write: CHUNKS / ((written - started) / 1000),
    read: CHUNKS / ((read - readFrom) / 1000),
    live: (CHUNKS - 1) / ((lastChunkAt - firstChunkAt) / 1000),
  };
}

const fmt = (values: number[]) =>
  `${quantile(values, 0.5).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;

const stores = await benchStores('bench-streams-', {
  names: ['SQLite (file, WAL)', 'PostgreSQL 15 (durable)'],
});
const { engines } = stores;
if (!stores.server) console.log('_PostgreSQL not available: SQLite only_\n');

const results = new Map<string, Trial[]>(engines.map(([name]) => [name, []]));
for (let round = 0; round < REPEATS; round++) {
  for (const [name, open] of engines) {
    const store = await open();
    try {
      results.get(name)!.push(await trial(store));
    } finally {
      await store.close();
    }
  }
}
console.log(`### streams: ${CHUNKS} chunks per run, ${REPEATS} trials per engine\n`);
console.log('| engine | written (chunks/s) | read, caught up (chunks/s) | read live (chunks/s) |');
console.log('|---|---:|---:|---:|');
for (const [name, trials] of results) {
  const column = (key: keyof Trial) => fmt(trials.map((t) => t[key]));
  console.log(`| ${name} | ${column('write')} | ${column('read')} | ${column('live')} |`);
}
console.log(`\n_median (min–max); ${loadLine()}_\n`);
await stores.close();
