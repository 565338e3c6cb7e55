/**
 * A session run on a page across processes: process A drives a run of a slow agent in a
 * child process; this process reads it as one UI message (`sessionUIChunks`) through its
 * own connection to the same SQLite file or PostgreSQL schema, with `ai`'s own reader —
 * live to its end, and through a takeover after A is SIGKILLed, with every step's text
 * shown once.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { type Store, session } from '../../../src/ai/session/index.ts';
import { sessionUIChunks } from '../../../src/ai/ui/index.ts';
import { nodeChild, PROCESS_TIMEOUT_MS } from '../../helpers/child-process.ts';
import { sharedDatabases } from '../../helpers/shared-database.ts';
import { waitFor } from '../../helpers/wait-for.ts';
import { slowAgent } from '../session/fixtures/slow-agent.ts';

const WORKER = join(import.meta.dirname, '..', 'session', 'fixtures', 'events-worker.ts');
const shared = sharedDatabases('session-chunks-processes');

async function readMessage(chunks: AsyncIterable<unknown>): Promise<UIMessage> {
  const stream = ReadableStream.from(chunks as AsyncIterable<UIMessageChunk>);
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  return last!;
}

const textsOf = (message: UIMessage) =>
  message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));

describe.each(['sqlite', 'postgres'] as const)(
  'a session run on a page, two processes on %s',
  (engine) => {
    it(
      'follows the run A drives to its end, and through B’s takeover after A is SIGKILLed',
      async (ctx) => {
        const db = await shared(engine);
        if (!db) return ctx.skip();
        const store: Store = db.open();
        try {
          const runs = session({
            store,
            agent: slowAgent({ steps: 7, stepMs: 20, tag: 'B' }),
            events: true,
            leaseMs: 500,
          });
          const start = (runId: string, leaseMs: number) =>
            nodeChild(WORKER, {
              db: db.db,
              schema: db.schema,
              runId,
              leaseMs,
              steps: 7,
              stepMs: 60,
              tag: 'A',
            });
          const created = (runId: string) =>
            waitFor(
              async () => (await store.get(runId).catch(() => undefined)) !== undefined,
              `run ${runId} to be stored`,
            );

          // Live, to the end: the message A's run built, step by step.
          const a = start('r-page', 30_000);
          await created('r-page');
          const live = readMessage(sessionUIChunks(runs, 'r-page', { pollMs: 20 }));
          expect(await a.done).toEqual({ ok: true, status: 'done' });
          const message = await live;
          expect(message.id).toBe('r-page');
          expect(textsOf(message)).toEqual(
            [0, 1, 2, 3, 4, 5].map((k) => `part ${k} by A`).concat('done by A'),
          );
          expect(message.parts.filter((part) => part.type === 'tool-tick')).toHaveLength(6);
          expect(message.metadata).toMatchObject({ fino: { status: 'done' } });

          // A dies mid-run; B takes over: each step's text once, whoever made it.
          const doomed = start('r-takeover', 500);
          await created('r-takeover');
          const reading = readMessage(sessionUIChunks(runs, 'r-takeover', { pollMs: 20 }));
          await waitFor(
            async () => ((await store.readEvents('r-takeover', 0, 1000))?.events.length ?? 0) >= 8,
            'eight events of r-takeover',
          );
          doomed.process.kill('SIGKILL');
          expect(await doomed.done).toEqual({ killed: 'SIGKILL' });
          for (;;) {
            const run = await runs.continue('r-takeover');
            if (run.status !== 'running') break;
            await sleep(50);
          }
          const texts = textsOf(await reading);
          expect(texts.map((text) => text.replace(/ by [AB]$/, ''))).toEqual(
            [0, 1, 2, 3, 4, 5].map((k) => `part ${k}`).concat('done'),
          );
          expect(texts.at(-1)).toBe('done by B');
        } finally {
          await store.close();
        }
      },
      PROCESS_TIMEOUT_MS * 2,
    );
  },
);
