/**
 * A stream reader follows a continue-as-new chain (decision 254), on SQLite and
 * PostgreSQL: `readStream` of a run that continued as new goes on into its successor's
 * stream of the same name, with offsets counted over the chain from the named run, and
 * ends when the chain's last run ends — or at a close.
 */
import { describe, expect, it } from 'vitest';
import { type StreamChunk, worker, workflow } from '../../../src/workflow/index.ts';
import { eachWorkflowStore } from '../../helpers/workflow-store.ts';

/** Every chunk of an iterable, in order. */
async function readAll(chunks: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const out: StreamChunk[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

/** Writes two ticks per run, for runs `gen` to `last`; closes `ticks` in run `closeAt`. */
const ticker = workflow({
  id: 'chain-ticker',
  async run(ctx, { gen, last, closeAt }: { gen: number; last: number; closeAt?: number }) {
    await ctx.writeStream('ticks', `g${gen}-a`);
    await ctx.writeStream('ticks', `g${gen}-b`);
    if (gen === closeAt) await ctx.closeStream('ticks');
    if (gen < last) return ctx.continueAsNew({ gen: gen + 1, last, closeAt });
    return gen;
  },
});

const ticks = (from: number, values: string[]) =>
  values.map((value, i) => ({ offset: from + i, value }));

describe.each(eachWorkflowStore('stream-chain'))('a stream of a chain (%s)', (_engine, open) => {
  it('reads on into the successors, offsets counted over the chain, live and after', async ({
    skip,
  }) => {
    const store = (await open()) ?? skip();
    const { runId } = await ticker.start({ gen: 0, last: 2 }, { store });
    const live = readAll(ticker.readStream(runId, 'ticks', { store })); // before any run
    const w = worker({ store, workflows: [ticker], pollMs: 10 });
    await w.start();
    try {
      const all = ['g0-a', 'g0-b', 'g1-a', 'g1-b', 'g2-a', 'g2-b'];
      expect(await live).toEqual(ticks(0, all)); // ends with the chain's last run
      expect(await ticker.result(runId, { store })).toBe(2);
      // A reconnect with the chain offset after the last chunk seen (3: g1-b).
      expect(await readAll(ticker.readStream(runId, 'ticks', { store, from: 4 }))).toEqual(
        ticks(4, all.slice(4)),
      );
      // Offsets count from the run named: the second run's g1-a is its offset 0.
      const second = (await ticker.get(runId, { store })).continuedTo!;
      expect(await readAll(ticker.readStream(second, 'ticks', { store }))).toEqual(
        ticks(0, all.slice(2)),
      );
      // Past the chain's end: nothing, and the reader ends.
      expect(await readAll(ticker.readStream(runId, 'ticks', { store, from: 99 }))).toEqual([]);
    } finally {
      await w.stop();
    }
  });

  it('ends at a close: a closed stream does not go on into the successor', async ({ skip }) => {
    const store = (await open()) ?? skip();
    const { runId } = await ticker.start({ gen: 0, last: 1, closeAt: 0 }, { store });
    const w = worker({ store, workflows: [ticker], pollMs: 10 });
    await w.start();
    try {
      expect(await ticker.result(runId, { store })).toBe(1); // the successor ran on
      expect(await readAll(ticker.readStream(runId, 'ticks', { store }))).toEqual(
        ticks(0, ['g0-a', 'g0-b']),
      );
    } finally {
      await w.stop();
    }
  });
});
