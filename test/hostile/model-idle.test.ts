/**
 * A model server that keeps a stream open with events that carry nothing — Responses'
 * `response.in_progress`, empty deltas, chunks without parts — cannot defeat the idle
 * timeout: only an event that adds to the answer restarts it, for every provider
 * (issue 32 item 4, decision 178).
 */
import { describe, expect, it } from 'vitest';
import {
  anthropic,
  gemini,
  type Model,
  ModelError,
  openai,
  type StreamEvent,
} from '../../src/ai/model/index.ts';
import {
  chatChunk,
  collect,
  SSE_HEADERS,
  sseData,
  sseEvent,
  useFakeProvider,
} from '../helpers/fake-provider.ts';

const fake = useFakeProvider();
const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };
const IDLE_MS = 600;
const timeouts = { idleMs: IDLE_MS };

/** A provider, and events of its stream that add nothing to the answer. */
interface Empty {
  name: string;
  model: (url: string) => Model;
  events: string[];
}

const EMPTY: Empty[] = [
  {
    name: 'openai chat',
    model: (url) => openai({ model: 'm', baseURL: url, timeouts }),
    events: [chatChunk({}), chatChunk({ content: '' }), sseData({ choices: [] })],
  },
  {
    name: 'openai responses',
    model: (url) => openai({ model: 'm', apiKey: 'k', baseURL: url, api: 'responses', timeouts }),
    events: [
      sseEvent({ type: 'response.in_progress', response: { status: 'in_progress' } }),
      sseEvent({ type: 'response.output_text.delta', output_index: 0, delta: '' }),
    ],
  },
  {
    name: 'anthropic',
    model: (url) => anthropic({ model: 'c', apiKey: 'k', baseURL: url, timeouts }),
    events: [
      sseEvent({ type: 'ping' }),
      sseEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '' } }),
    ],
  },
  {
    name: 'gemini',
    model: (url) => gemini({ model: 'g', apiKey: 'k', baseURL: url, timeouts }),
    events: [
      sseData({ candidates: [{ content: { role: 'model', parts: [] } }] }),
      sseData({ candidates: [{ content: { role: 'model', parts: [{ text: '' }] } }] }),
    ],
  },
];

describe.each(EMPTY)('$name: a stream of events without content', ({ model, events }) => {
  it('fails at idleMs with the timeout error', async () => {
    await fake.serve([
      (res) => {
        res.writeHead(200, SSE_HEADERS);
        let n = 0;
        const timer = setInterval(() => res.write(`${events[n++ % events.length]}\n\n`), 50);
        res.on('close', () => clearInterval(timer));
      },
    ]);
    const started = Date.now();
    // Without the idle timeout the stream would never end: the signal stops the test.
    const stream = model(fake.server.url).stream({ ...ask, signal: AbortSignal.timeout(8_000) });
    const all: StreamEvent[] = await collect(stream);
    const took = Date.now() - started;
    expect(all.map((e) => e.type)).toEqual(['error']);
    const error = all[0].type === 'error' ? all[0].error : undefined;
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'timeout', retryable: true });
    expect(error?.message).toContain(
      `sent no content for ${IDLE_MS} ms (keep-alive comments, pings and events that add nothing to the answer do not count); the limit is timeouts.idleMs`,
    );
    expect(took).toBeGreaterThanOrEqual(IDLE_MS);
    expect(took).toBeLessThan(IDLE_MS + 4_000);
    await fake.server.closed(0);
  }, 15_000);
});
