/**
 * A start on a long thread, against the thread's length: rows read from
 * `fino_thread_messages` and time per `start`, for threads of 100, 1,000 and 10,000
 * messages (issue 22 item 6). Each thread lives in its own SQLite file (WAL,
 * durable), seeded as earlier runs leave it; each start loads the newest messages that
 * cover `threads.maxTokens` (4,000), sends them to a scripted model and appends its two
 * messages. Flat is right: the rows read are bounded by the budget, not the thread.
 *
 *     node --import tsx bench/session/threads.ts
 *
 * A start costs milliseconds (a durable commit), so each is timed alone, not in batches;
 * what it appended is removed after it (not timed), so every start sees the same length.
 * `BENCH_SAMPLES` sets the starts per length (default 41).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent } from '../../src/ai/agent/index.ts';
import type { GenerateResult, Model } from '../../src/ai/model/index.ts';
import { session } from '../../src/ai/session/index.ts';
import { SESSION_SCHEMA, type SessionDriver } from '../../src/ai/session/store/migrations.ts';
import { sqlStore } from '../../src/ai/session/store/sql-store.ts';
import { postgresDriver, sqliteDriver } from '../../src/internal/sql/index.ts';
import { countingDriver } from '../../test/helpers/counting-driver.ts';
import { seedThread } from '../../test/helpers/long-thread.ts';
import { freshSchema, startPostgres } from '../../test/helpers/postgres.ts';
import { loadLine, quantile } from '../harness.ts';

const LENGTHS = [100, 1_000, 10_000];
const MAX_TOKENS = 4_000;

/** A model that answers every request at once, and remembers how many messages it was sent. */
function echoModel(sent: number[]): Model {
  const answer = (messages: number): GenerateResult => {
    sent.push(messages);
    return {
      message: { role: 'assistant', content: 'Noted.' },
      text: 'Noted.',
      toolCalls: [],
      stopReason: 'end',
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    } as GenerateResult;
  };
  return {
    id: 'echo',
    provider: 'bench',
    generate: async (request) => answer(request.messages.length),
    stream: () => {
      throw new Error('not streamed');
    },
  } as Model;
}

/** Samples per thread length (`BENCH_SAMPLES`, default 41), after 10 warm-up starts each. */
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 41);
const WARMUP = 10;

interface Peer {
  length: number;
  start(): Promise<unknown>;
  /** Removes what the last start appended, so the thread keeps its length (not timed). */
  trim(): Promise<void>;
  rows(): number;
  reset(): void;
  close(): Promise<void>;
  sent: number[];
  times: number[];
}

/** Measures starts on threads of each length, each in its own database from `open`. */
async function measure(title: string, open: (length: number) => Promise<SessionDriver>) {
  const peers: Peer[] = [];
  for (const length of LENGTHS) {
    const counting = countingDriver(await open(length));
    const { driver } = counting;
    const store = sqlStore(driver);
    await store.list(); // migrated
    await seedThread(driver, 'customer', length);
    const sent: number[] = [];
    const runs = session({
      store,
      agent: agent({ model: echoModel(sent) }),
      threads: { maxTokens: MAX_TOKENS },
    });
    peers.push({
      length,
      start: () => runs.start('Any news?', { threadId: 'customer' }),
      async trim() {
        await driver.query(
          `DELETE FROM ${driver.table('thread_messages')} WHERE thread_id = ? AND position >= ?`,
          ['customer', length],
        );
        await driver.query(
          `UPDATE ${driver.table('threads')} SET message_count = ? WHERE thread_id = ?`,
          [length, 'customer'],
        );
      },
      rows: () => counting.rows('thread_messages'),
      reset: () => counting.reset(),
      close: () => store.close(),
      sent,
      times: [],
    });
  }
  for (const peer of peers) {
    for (let i = 0; i < WARMUP; i++) {
      await peer.start();
      await peer.trim();
    }
    peer.sent.length = 0;
  }
  // Interleaved, the order rotating every round; rows are counted around the start only.
  const reads = new Map<Peer, number>();
  for (let round = 0; round < SAMPLES; round++) {
    for (let k = 0; k < peers.length; k++) {
      const peer = peers[(round + k) % peers.length];
      peer.reset();
      const began = process.hrtime.bigint();
      await peer.start();
      peer.times.push(Number(process.hrtime.bigint() - began) / 1e6);
      reads.set(peer, (reads.get(peer) ?? 0) + peer.rows());
      await peer.trim();
    }
  }
  const base = quantile(peers[0].times, 0.5);
  console.log(`### start on a thread, by thread length (${title})\n`);
  console.log(
    '| thread | median time/start | p25–p75 | × 100 messages | thread_messages rows read/start | messages sent/start |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const peer of peers) {
    const median = quantile(peer.times, 0.5);
    const sent = peer.sent.reduce((a, b) => a + b, 0) / peer.sent.length;
    console.log(
      `| ${peer.length.toLocaleString('en')} messages | ${median.toFixed(2)} ms | ${quantile(peer.times, 0.25).toFixed(2)}–${quantile(peer.times, 0.75).toFixed(2)} ms | ${(median / base).toFixed(2)} | ${((reads.get(peer) ?? 0) / SAMPLES).toFixed(0)} | ${sent.toFixed(0)} |`,
    );
  }
  console.log(
    `\n_wall clock, ${SAMPLES} starts per length after ${WARMUP} warm-up starts, interleaved; threads.maxTokens = ${MAX_TOKENS}; ${loadLine()}_\n`,
  );
  for (const peer of peers) await peer.close();
}

const dir = mkdtempSync(join(tmpdir(), 'fino-bench-threads-'));
const server = await startPostgres();
try {
  await measure('SQLite file', async (length) =>
    sqliteDriver(join(dir, `thread-${length}.db`), {
      busyTimeoutMs: 10_000,
      store: 'sqliteStore()',
      database: SESSION_SCHEMA.database,
    }),
  );
  if (server) {
    const url = server.url;
    await measure('PostgreSQL 15, the test server', async () =>
      postgresDriver(url, {
        schema: await freshSchema(url),
        store: 'postgresStore()',
        database: SESSION_SCHEMA.database,
      }),
    );
  } else console.log('_PostgreSQL rows left out: no server (see test/helpers/postgres.ts)_');
} finally {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
