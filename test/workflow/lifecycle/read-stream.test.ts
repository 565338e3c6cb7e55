/**
 * Streams out of a run on SQLite and PostgreSQL: chunks written once however often the
 * code replays, read live or from any offset, bounded (`STREAM_FULL`), closed
 * (`STREAM_CLOSED`); bad offsets, unknown runs and hostile names refused clearly; a reader
 * that stops or aborts leaves nothing behind and an idle one does not hammer the store.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  postgresWorkflowStore,
  type StreamChunk,
  sqliteWorkflowStore,
  type WorkflowError,
  type WorkflowStore,
  worker,
  workflow,
  workflowRuns,
} from '../../../src/workflow/index.ts';
import { MAX_POLL_MS } from '../../../src/workflow/lifecycle/read-stream.ts';
import {
  MAX_STREAM_BYTES,
  MAX_STREAM_CHUNKS,
  MAX_STREAMS_PER_RUN,
} from '../../../src/workflow/stream-limits.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const dir = tempDir('workflow-streams');
const postgres = postgresForTests();

/** Every chunk of an iterable, in order. */
async function readAll(chunks: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const out: StreamChunk[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

/** Writes `tick-1`, `tick-2` … with a signal wait between, so the code replays around the writes. */
const ticker = workflow({
  id: 'ticker',
  async run(ctx, rounds: number) {
    for (let round = 1; round <= rounds; round++) {
      await ctx.writeStream('ticks', `tick-${round}`);
      await ctx.writeStream('json', { round, at: round * 10 });
      if (round < rounds) await ctx.waitForSignal('next');
    }
    await ctx.closeStream('ticks');
    return 'done';
  },
});

/** The limits, reached in one run: caught by the code, then a wait so the refusals replay. */
const bounded = workflow({
  id: 'bounded',
  maxValueBytes: MAX_STREAM_BYTES / 4,
  async run(ctx, what: 'chunks' | 'bytes' | 'streams' | 'closed' | 'large') {
    const refusals: string[] = [];
    const attempt = async (write: () => Promise<void>) => {
      try {
        await write();
      } catch (error) {
        refusals.push((error as WorkflowError).code);
      }
    };
    const big = 'x'.repeat(MAX_STREAM_BYTES / 4 - 2); // JSON: a quarter of the byte cap
    if (what === 'chunks') {
      for (let n = 0; n < MAX_STREAM_CHUNKS; n++) await ctx.writeStream('s', n);
      await attempt(() => ctx.writeStream('s', 'one too many'));
    }
    if (what === 'bytes') {
      for (let n = 0; n < 4; n++) await ctx.writeStream('s', big);
      await attempt(() => ctx.writeStream('s', big));
      await attempt(() => ctx.writeStream('s', 'small'));
    }
    if (what === 'streams') {
      for (let n = 0; n < MAX_STREAMS_PER_RUN; n++) await ctx.writeStream(`s${n}`, n);
      await attempt(() => ctx.writeStream('one-more', 0));
    }
    if (what === 'closed') {
      await ctx.writeStream('s', 'a');
      await ctx.closeStream('s');
      await ctx.closeStream('s'); // closing twice is harmless
      await attempt(() => ctx.writeStream('s', 'b'));
    }
    if (what === 'large') {
      await attempt(() => ctx.writeStream('s', `${big}!`));
      await attempt(() => ctx.writeStream('s', { at: new Date(0) }));
      await attempt(() => ctx.writeStream('s', undefined));
      await attempt(() => ctx.writeStream('bad\u0000name', 1));
      await attempt(() => ctx.writeStream('s', 'fits'));
    }
    await ctx.waitForSignal('again');
    return refusals;
  },
});

const engines: Array<[string, () => Promise<WorkflowStore | undefined>]> = [
  [
    'SQLite',
    async () => sqliteWorkflowStore(join(dir, `${Math.random().toString(36).slice(2)}.db`)),
  ],
  [
    'PostgreSQL',
    async () => {
      const pg = await postgres();
      return pg && postgresWorkflowStore(pg.url, { schema: await freshSchema(pg.url) });
    },
  ],
];

for (const [engine, open] of engines) {
  describe(`streams out (${engine})`, () => {
    const withStore =
      (test: (store: WorkflowStore) => Promise<void>) => async (context: { skip: () => void }) => {
        const store = await open();
        if (!store) return context.skip();
        try {
          await test(store);
        } finally {
          await store.close();
        }
      };

    it(
      'writes each chunk once however often the code replays, and follows the stream live to its close',
      withStore(async (store) => {
        const w = worker({ store, workflows: [ticker] });
        const { runId } = await ticker.start(3, { store });
        const live = readAll(ticker.readStream(runId, 'ticks', { store })); // before anything is written
        for (let round = 1; round <= 3; round++) {
          await w.drain(); // each execution replays the rounds before
          if (round < 3) await ticker.signal({ store, runId, name: 'next' });
        }
        const ticks = ['tick-1', 'tick-2', 'tick-3'].map((value, offset) => ({ offset, value }));
        expect(await live).toEqual(ticks);
        expect(await readAll(ticker.readStream(runId, 'ticks', { store, from: 1 }))).toEqual(
          ticks.slice(1),
        );
        // Not closed, but the run ended: the reader ends after its last chunk.
        expect(await readAll(workflowRuns(store).readStream(runId, 'json'))).toEqual([
          { offset: 0, value: { round: 1, at: 10 } },
          { offset: 1, value: { round: 2, at: 20 } },
          { offset: 2, value: { round: 3, at: 30 } },
        ]);
        expect(await store.streamLength(runId, 'ticks')).toEqual({ length: 3, closed: true });
      }),
    );

    it(
      'resumes a reader from the offset after the last chunk it saw',
      withStore(async (store) => {
        const w = worker({ store, workflows: [ticker] });
        const { runId } = await ticker.start(4, { store });
        await w.drain();
        await ticker.signal({ store, runId, name: 'next' });
        await w.drain();
        const seen: StreamChunk[] = [];
        for await (const chunk of ticker.readStream(runId, 'ticks', { store })) {
          seen.push(chunk);
          if (seen.length === 2) break; // the connection drops
        }
        const resumed = readAll(
          ticker.readStream(runId, 'ticks', { store, from: seen.at(-1)!.offset + 1 }),
        );
        for (let round = 3; round <= 4; round++) {
          await ticker.signal({ store, runId, name: 'next' });
          await w.drain();
        }
        expect([...seen, ...(await resumed)].map((c) => [c.offset, c.value])).toEqual([
          [0, 'tick-1'],
          [1, 'tick-2'],
          [2, 'tick-3'],
          [3, 'tick-4'],
        ]);
      }),
    );

    it(
      'refuses a bad offset, an unknown run and hostile names clearly; past the end of an ended stream reads nothing',
      withStore(async (store) => {
        const { runId } = await ticker.start(1, { store });
        await worker({ store, workflows: [ticker] }).drain();
        const read = (from: unknown, name: unknown = 'ticks', id: unknown = runId) =>
          ticker.readStream(id as string, name as string, { store, from: from as number });
        for (const from of [2 ** 53, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '3']) {
          expect(() => read(from)).toThrow(
            expect.objectContaining({
              code: 'INVALID_ARGUMENT',
              message: expect.stringContaining(
                `readStream: from: expected an offset, a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`,
              ),
            }),
          );
        }
        expect(await readAll(read(Number.MAX_SAFE_INTEGER))).toEqual([]);
        for (const name of ['', 'a\u0000b', 'x\uD800', 'n'.repeat(201), 42, null]) {
          expect(() => read(0, name)).toThrow(
            expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
          );
        }
        expect(() => read(0, 'ticks', '')).toThrow(
          expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
        );
        await expect(readAll(read(0, 'ticks', 'no-such-run'))).rejects.toMatchObject({
          code: 'NOT_FOUND',
        });
        await expect(
          readAll(workflowRuns(store).readStream('no-such-run', 'ticks')),
        ).rejects.toMatchObject({
          code: 'NOT_FOUND',
        });
        const other = workflow({ id: 'other', run: () => undefined });
        await expect(readAll(other.readStream(runId, 'ticks', { store }))).rejects.toMatchObject({
          code: 'NOT_FOUND',
        });
        // A name no code wrote, of an ended run: nothing, at once.
        expect(await readAll(read(0, 'never written'))).toEqual([]);
        expect(await readAll(read(0, "'; DROP TABLE fino_workflow_runs; --"))).toEqual([]);
      }),
    );

    for (const [what, refusals, length] of [
      ['chunks', ['STREAM_FULL'], MAX_STREAM_CHUNKS],
      ['bytes', ['STREAM_FULL', 'STREAM_FULL'], 4],
      ['closed', ['STREAM_CLOSED'], 1],
      ['large', ['TOO_LARGE', 'NOT_JSON', 'INVALID_ARGUMENT', 'INVALID_ARGUMENT'], 1],
    ] as const) {
      it(
        `bounds a stream (${what}): refused the same way when the code replays, nothing written twice`,
        withStore(async (store) => {
          if (what === 'chunks' && engine === 'PostgreSQL') return; // 10 000 transactions: SQLite shows the rule
          const w = worker({ store, workflows: [bounded] });
          const { runId } = await bounded.start(what, { store });
          await w.drain();
          await bounded.signal({ store, runId, name: 'again' });
          await w.drain(); // the whole code replays, refusals included
          expect(await bounded.result(runId, { store })).toEqual(refusals);
          expect(await store.streamLength(runId, 's')).toMatchObject({ length });
        }),
      );
    }

    it(
      'bounds the streams of a run',
      withStore(async (store) => {
        const { runId } = await bounded.start('streams', { store });
        await worker({ store, workflows: [bounded] }).drain();
        await bounded.signal({ store, runId, name: 'again' });
        await worker({ store, workflows: [bounded] }).drain();
        expect(await bounded.result(runId, { store })).toEqual(['STREAM_FULL']);
        expect(await store.streamLength(runId, 'one-more')).toEqual({ length: 0, closed: false });
      }),
    );
  });
}

describe('writes from inside a step or a tool call', () => {
  it('are refused, naming the step: a completed step never runs again, so its writes could not be kept once', async () => {
    const store = sqliteWorkflowStore(join(dir, 'inside-step.db'));
    try {
      const echo = {
        name: 'echo',
        invoke: async () => {
          const refused = await ctx0!
            .writeStream('s', 'from a tool')
            .catch((e: WorkflowError) => e.message);
          return { content: String(refused) };
        },
      };
      let ctx0: import('../../../src/workflow/index.ts').WorkflowContext | undefined;
      const inside = workflow({
        id: 'inside',
        async run(ctx) {
          ctx0 = ctx;
          const refused: string[] = [];
          await ctx.step('tokens', async () => {
            await sleep(1);
            await ctx
              .writeStream('s', 'from a step')
              .catch((e: WorkflowError) => refused.push(e.message));
            await ctx.closeStream('s').catch((e: WorkflowError) => refused.push(e.code));
          });
          const called = await ctx.call(echo, {});
          await ctx.writeStream('s', 'from the code'); // after the step: the run's code again
          return { refused, called: String(called.content) };
        },
      });
      const { runId } = await inside.start(undefined, { store });
      await worker({ store, workflows: [inside] }).drain();
      const result = (await inside.result(runId, { store })) as {
        refused: string[];
        called: string;
      };
      expect(result.refused).toEqual([
        expect.stringMatching(
          /^ctx\.writeStream\("s"\) inside step "tokens": streams are written from the run's code/,
        ),
        'INVALID_ARGUMENT',
      ]);
      expect(result.called).toMatch(
        /ctx\.writeStream\("s"\) inside call "\$call:echo" of tool "echo"/,
      );
      expect(await readAll(inside.readStream(runId, 's', { store }))).toEqual([
        { offset: 0, value: 'from the code' },
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('a reader that waits', () => {
  /** The store, counting reads of chunks and live watchers. */
  const counting = (store: WorkflowStore) => {
    const counts = { reads: 0, watching: 0 };
    const wrapped: WorkflowStore = {
      ...store,
      streamChunks: (...args) => {
        counts.reads++;
        return store.streamChunks(...args);
      },
      watchStream: (runId, name, wake) => {
        counts.watching++;
        const stop = store.watchStream(runId, name, wake);
        return () => {
          counts.watching--;
          stop();
        };
      },
    };
    return { wrapped, counts };
  };

  it('polls an idle stream with a backoff, is woken at once by a write of its process, and frees everything when it stops', async () => {
    const store = sqliteWorkflowStore(join(dir, 'waits.db'));
    try {
      const { wrapped, counts } = counting(store);
      const readAt: number[] = [];
      const timed: WorkflowStore = {
        ...wrapped,
        streamChunks: (...args) => {
          readAt.push(Date.now());
          return wrapped.streamChunks(...args);
        },
      };
      let appendedAt = 0;
      const writer: WorkflowStore = {
        ...store,
        appendStream: (runId, owner, chunk, leaseMs) => {
          if (chunk.name === 'ticks') appendedAt = Date.now();
          return store.appendStream(runId, owner, chunk, leaseMs);
        },
      };
      const { runId } = await ticker.start(3, { store });
      const w = worker({ store: writer, workflows: [ticker] });
      await w.drain();
      const iterator = ticker.readStream(runId, 'ticks', { store: timed })[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toEqual({ offset: 0, value: 'tick-1' });
      for (const offset of [1, 2]) {
        const next = iterator.next(); // nothing new until the signal
        const idleFrom = counts.reads;
        // 25, 50, … ms doubling: after 7 reads the reader waits MAX_POLL_MS between two.
        while (counts.reads < idleFrom + 7) await sleep(50);
        expect(readAt.at(-1)! - readAt.at(-2)!).toBeGreaterThanOrEqual(MAX_POLL_MS / 2);
        await ticker.signal({ store, runId, name: 'next' });
        await w.drain();
        expect((await next).value).toEqual({ offset, value: `tick-${offset + 1}` });
        // Woken by the write, not by its next poll (which is up to MAX_POLL_MS away).
        const wokenRead = readAt.find((at) => at >= appendedAt)!;
        expect(wokenRead - appendedAt).toBeLessThan(MAX_POLL_MS / 10);
      }
      expect((await iterator.next()).done).toBe(true);
      expect(counts.watching).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('ends a reader on break and on abort, leaving no watcher, no timer and no more reads', async () => {
    const store = sqliteWorkflowStore(join(dir, 'abandoned.db'));
    try {
      const { wrapped, counts } = counting(store);
      const { runId } = await ticker.start(3, { store });
      await worker({ store, workflows: [ticker] }).drain();
      for await (const chunk of ticker.readStream(runId, 'ticks', { store: wrapped })) {
        expect(chunk.offset).toBe(0);
        break;
      }
      expect(counts.watching).toBe(0);
      const abort = new AbortController();
      const reading = readAll(
        ticker.readStream(runId, 'ticks', { store: wrapped, from: 1, signal: abort.signal }),
      );
      await sleep(200);
      expect(counts.watching).toBe(1);
      const timersBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
      abort.abort();
      await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
      expect(counts.watching).toBe(0);
      const reads = counts.reads;
      await sleep(300);
      expect(counts.reads).toBe(reads);
      expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBeLessThan(
        timersBefore,
      );
      const aborted = AbortSignal.abort();
      await expect(
        readAll(ticker.readStream(runId, 'ticks', { store, signal: aborted })),
      ).rejects.toMatchObject({
        name: 'AbortError',
      });
    } finally {
      await store.close();
    }
  });
});
