/**
 * Attacks on the chat handler's streams (issue 28, "a client that never reads the
 * stream"; decision 260). A run belongs to the session, not to the request: a page that
 * never reads, or leaves mid-stream, costs the server at most `streamLimits.maxBufferedBytes`
 * of unread events and never blocks or ends the run — it finishes, and a later
 * `GET …/stream` replays it whole. An endless model is bounded twice: the page's stream
 * by the buffer limit, the run's recorded events by the session's `events` limits.
 */
import { describe, expect, it } from 'vitest';
import type { GenerateRequest, Model, StreamEvent } from '../../src/ai/model/index.ts';
import type { Session } from '../../src/ai/session/index.ts';
import { endlessModel } from '../helpers/endless-model.ts';
import { sessionStores, withStore } from '../helpers/session-stores.ts';
import {
  CHAT_URL,
  chatUnderAttack,
  postChat,
  refusalOf,
  until,
  userMessage,
} from '../helpers/ui-chat-attack.ts';

const open = sessionStores('hostile-ui-chat-backpressure');

const DELTAS = 1_500;
const DELTA = 'y'.repeat(1024);
/** One text-delta event on the wire. */
const EVENT_BYTES = `data: {"type":"text-delta","id":"text-0-0","delta":"${DELTA}"}\n\n`.length;
const MAX_BUFFERED = 64 * 1024;

/**
 * A model streaming `DELTAS` deltas of 1 KiB (≈ 1.5 MiB), then waiting for `release()`
 * before it stops: a run long enough to outgrow any buffer, still running when asked.
 */
function floodModel() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let sent = 0;
  const text = DELTA.repeat(DELTAS);
  const model: Model = {
    id: 'flood',
    generate: () => Promise.reject(new Error('floodModel: stream only')),
    async *stream(_request: GenerateRequest): AsyncIterable<StreamEvent> {
      for (let i = 0; i < DELTAS; i++) {
        sent++;
        yield { type: 'text-delta', text: DELTA };
        if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await released;
      const usage = { inputTokens: 1, outputTokens: DELTAS, totalTokens: DELTAS + 1 };
      yield {
        type: 'stop',
        result: {
          message: { role: 'assistant', content: [{ type: 'text', text }] },
          text,
          toolCalls: [],
          stopReason: 'end',
          usage,
        },
      };
    },
  };
  return { model, release, sent: () => sent, text };
}

/** How many text deltas the run recorded so far. */
async function recordedDeltas(runs: Session, runId: string): Promise<number> {
  let count = 0;
  for await (const { event } of runs.events(runId, { follow: false })) {
    if (event.type === 'text-delta') count++;
  }
  return count;
}

const deltasIn = (body: string) => body.split(`"delta":"${DELTA}"`).length - 1;

describe.each([
  ['memory', open.memory],
  ['sqlite', open.sqlite],
])('a chat stream nobody reads, on a %s session', (_name, openStore) => {
  it(
    'holds at most maxBufferedBytes, the run finishes, and GET …/stream replays it whole',
    withStore(openStore, async (store) => {
      const flood = floodModel();
      const chat = chatUnderAttack(store, flood.model, {
        streamLimits: { maxBufferedBytes: MAX_BUFFERED },
      });
      const unread = await chat.chat.fetch(postChat(userMessage('chat-1', 'Write a lot')));
      expect(unread.status).toBe(200);
      const [run] = await chat.runs.list({ threadId: 'chat-1' });
      // The run is not held by the page that does not read: every delta is made and recorded.
      await until(async () => (await recordedDeltas(chat.runs, run.runId)) === DELTAS, 30_000);
      expect((await chat.runs.get(run.runId))?.status).toBe('running');
      // A message from the page meanwhile waits its turn: 409, nothing started.
      const busy = await refusalOf(
        await chat.chat.fetch(postChat(userMessage('chat-1', 'Stop that', 'u2'))),
      );
      expect([busy.status, busy.code]).toEqual([409, 'THREAD_BUSY']);
      expect(busy.message).toContain('is answering another message (run "run_');
      expect(await chat.runs.list()).toHaveLength(1);

      // A reconnect while it runs replays everything so far, then follows it live.
      const resumed = await chat.chat.fetch(new Request(`${CHAT_URL}/chat-1/stream`));
      expect(resumed.status).toBe(200);
      flood.release();
      const replay = await resumed.text();
      expect(deltasIn(replay)).toBe(DELTAS);
      expect(replay).toContain('"type":"finish"');
      expect(replay.endsWith('data: [DONE]\n\n')).toBe(true);
      await until(async () => (await chat.runs.get(run.runId))?.status === 'done');
      const page = await chat.runs.thread('chat-1', { limit: 10 });
      expect(page?.messages.at(-1)?.message.content).toEqual([{ type: 'text', text: flood.text }]);

      // What the unread response held: at most the limit, then its overflow error.
      const held = await unread.text();
      expect(held.length).toBeLessThan(MAX_BUFFERED + 2 * EVENT_BYTES + 1024);
      expect(held).toContain('STREAM_OVERFLOW');
      expect(held).toContain('limits.maxBufferedBytes');
      expect(chat.errors).toEqual([]);
    }),
    60_000,
  );

  it(
    'a page that aborts mid-stream stops its stream only: the run finishes',
    withStore(openStore, async (store) => {
      const flood = floodModel();
      const chat = chatUnderAttack(store, flood.model);
      const leaving = new AbortController();
      const response = await chat.chat.fetch(
        postChat(userMessage('chat-1', 'Write a lot'), { signal: leaving.signal }),
      );
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let read = '';
      while (!read.includes('"type":"text-delta"')) {
        const { value } = await reader.read();
        read += new TextDecoder().decode(value);
      }
      leaving.abort();
      await reader.cancel().catch(() => {});
      flood.release();
      const [run] = await chat.runs.list({ threadId: 'chat-1' });
      await until(async () => (await chat.runs.get(run.runId))?.status === 'done', 30_000);
      expect(await recordedDeltas(chat.runs, run.runId)).toBe(DELTAS);
      expect(flood.sent()).toBe(DELTAS);
      expect(chat.errors).toEqual([]);
    }),
    60_000,
  );

  it(
    "an endless model: the page's stream ends at the buffer limit, the run's log at its events limit",
    withStore(openStore, async (store) => {
      const model = endlessModel(DELTA);
      const chat = chatUnderAttack(store, model, {
        streamLimits: { maxBufferedBytes: MAX_BUFFERED },
        events: { maxEvents: 300 },
        // Renewed every 500 ms: the worker learns of the cancellation at its next renewal.
        leaseMs: 1_500,
      });
      const unread = await chat.chat.fetch(postChat(userMessage('chat-1', 'Never stop')));
      const [run] = await chat.runs.list({ threadId: 'chat-1' });
      const log = async () => {
        const types = [];
        for await (const { event } of chat.runs.events(run.runId, { follow: false })) {
          types.push(event.type);
        }
        return types;
      };
      // The model goes on; the run's log stops at its limit with the truncation marker.
      await until(async () => (await log()).at(-1) === 'events-truncated', 30_000);
      await until(() => model.sent > 3_000, 30_000);
      expect(await log()).toHaveLength(300);
      // The run goes on until someone stops it; cancelling it stops the model.
      expect((await chat.runs.get(run.runId))?.status).toBe('running');
      await chat.runs.cancel(run.runId, { by: 'ops' });
      await model.aborted;
      await until(async () => (await chat.runs.get(run.runId))?.status === 'cancelled');
      // Read only now: the page's stream held at most the limit, then ended.
      const held = await unread.text();
      expect(held.length).toBeLessThan(MAX_BUFFERED + 2 * EVENT_BYTES + 1024);
      expect(held).toContain('STREAM_OVERFLOW');
    }),
    60_000,
  );
});
