/**
 * A model server that streams deltas forever — text, tool call arguments, reasoning — or
 * one enormous encrypted reasoning item: every provider stops the call at
 * `maxAnswerChars` with a ModelError saying the limit and how to raise it, and what the
 * call held stays bounded (issue 32 item 5, decision 177).
 */
import type { ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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
  SSE_HEADERS,
  sseData,
  sseEvent,
  useFakeProvider,
} from '../helpers/fake-provider.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const fake = useFakeProvider();
const ask = { messages: [{ role: 'user' as const, content: 'Tell me everything.' }] };
const MiB = 1024 * 1024;

/** A provider's stream that never ends: its opening events, then `delta` again and again. */
interface Flood {
  name: string;
  model: (url: string, maxAnswerChars?: number) => Model;
  opening: string[];
  delta: (text: string) => string;
}

const anthropicStart = (block: Record<string, unknown>) => [
  sseEvent({ type: 'message_start', message: { content: [], usage: { input_tokens: 5 } } }),
  sseEvent({ type: 'content_block_start', index: 0, content_block: block }),
];

const FLOODS: Flood[] = [
  {
    name: 'openai chat: text',
    model: (url, maxAnswerChars) => openai({ model: 'm', baseURL: url, maxAnswerChars }),
    opening: [],
    delta: (text) => chatChunk({ content: text }),
  },
  {
    name: 'openai chat: tool call arguments',
    model: (url, maxAnswerChars) => openai({ model: 'm', baseURL: url, maxAnswerChars }),
    opening: [
      chatChunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: '' } }] }),
    ],
    delta: (text) => chatChunk({ tool_calls: [{ index: 0, function: { arguments: text } }] }),
  },
  {
    name: 'openai responses: reasoning summary',
    model: (url, maxAnswerChars) =>
      openai({ model: 'm', apiKey: 'k', baseURL: url, api: 'responses', maxAnswerChars }),
    opening: [
      sseEvent({
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'reasoning', id: 'rs_1', summary: [] },
      }),
    ],
    delta: (text) =>
      sseEvent({ type: 'response.reasoning_summary_text.delta', output_index: 0, delta: text }),
  },
  {
    name: 'anthropic: thinking',
    model: (url, maxAnswerChars) =>
      anthropic({ model: 'c', apiKey: 'k', baseURL: url, maxAnswerChars }),
    opening: anthropicStart({ type: 'thinking', thinking: '' }),
    delta: (text) =>
      sseEvent({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: text },
      }),
  },
  {
    name: 'gemini: text',
    model: (url, maxAnswerChars) =>
      gemini({ model: 'g', apiKey: 'k', baseURL: url, maxAnswerChars }),
    opening: [],
    delta: (text) => sseData({ candidates: [{ content: { role: 'model', parts: [{ text }] } }] }),
  },
];

/** Writes the opening events, then `delta` as fast as the client reads, until it hangs up. */
function floodEvents(res: ServerResponse, opening: string[], delta: string): void {
  res.writeHead(200, SSE_HEADERS);
  for (const event of opening) res.write(`${event}\n\n`);
  const batch = `${delta}\n\n`.repeat(Math.max(1, 16_384 / delta.length));
  const pump = () => {
    while (!res.destroyed) if (!res.write(batch)) return void res.once('drain', pump);
  };
  pump();
}

/**
 * Reads the stream to its end, or `most` events; returns its last event and the most the
 * heap grew, measured after a full collection every `every` events (what the call holds,
 * not its garbage).
 */
async function drain(stream: AsyncIterable<StreamEvent>, every = 4000, most = 200_000) {
  gc();
  const base = process.memoryUsage().heapUsed;
  let grown = 0;
  let count = 0;
  let last: StreamEvent | undefined;
  for await (const event of stream) {
    last = event;
    // An unbounded call would read on: stop the test well past any limit it sets.
    if (++count > most) break;
    if (count % every === 0) {
      gc();
      grown = Math.max(grown, process.memoryUsage().heapUsed - base);
    }
  }
  return { last, grown, count };
}

function expectTooLong(last: StreamEvent | undefined, provider: string, max: number): void {
  expect(last?.type).toBe('error');
  const error = last?.type === 'error' ? last.error : undefined;
  expect(error).toBeInstanceOf(ModelError);
  expect(error).toMatchObject({ provider, code: 'answer_too_large', retryable: false });
  expect(error?.message).toMatch(
    new RegExp(
      `^${provider}: the answer is longer than maxAnswerChars \\(${max} characters of text, tool call arguments and reasoning together, each piece counting 32 more\\); a piece of [a-z ]+ passed it and the call was stopped\\. Raise the limit with ${provider}\\(\\{ maxAnswerChars \\}\\) if the model's answers are really this long$`,
    ),
  );
}

describe.each(FLOODS)('$name sent forever', (flood) => {
  it('one-character deltas: the call stops at maxAnswerChars, holding a bounded heap', async () => {
    const max = MiB;
    await fake.serve([(res) => floodEvents(res, flood.opening, flood.delta('x'))]);
    const { last, grown, count } = await drain(flood.model(fake.server.url, max).stream(ask));
    expectTooLong(last, flood.model('http://x').id.split(':')[0], max);
    // Each one-character piece counts 33: the call stopped near max / 33 pieces.
    expect(count).toBeLessThan(max / 32);
    expect(grown).toBeLessThan(10 * max);
    await fake.server.closed(0);
  }, 60_000);

  it('the default limit (16 Mi characters) holds 64 KiB deltas, then stops', async () => {
    await fake.serve([
      (res) => floodEvents(res, flood.opening, flood.delta('y'.repeat(64 * 1024))),
    ]);
    const { last, grown } = await drain(flood.model(fake.server.url).stream(ask), 32);
    expectTooLong(last, flood.model('http://x').id.split(':')[0], 16 * MiB);
    expect(grown).toBeLessThan(10 * 16 * MiB);
  }, 60_000);
});

describe('whole answers and items past the limit', () => {
  it('a 20 MiB encrypted reasoning item is refused at the default limit, before the final event', async () => {
    const item = {
      type: 'reasoning',
      id: 'rs_1',
      summary: [],
      encrypted_content: 'e'.repeat(20 * MiB),
    };
    await fake.serve([
      {
        sse: [
          sseEvent({
            type: 'response.output_item.added',
            output_index: 0,
            item: { ...item, encrypted_content: '' },
          }),
          sseEvent({ type: 'response.output_item.done', output_index: 0, item }),
          sseEvent({
            type: 'response.completed',
            response: { status: 'completed', output: [item] },
          }),
        ],
      },
    ]);
    const model = openai({ model: 'm', apiKey: 'k', baseURL: fake.server.url, api: 'responses' });
    const { last } = await drain(model.stream(ask));
    expectTooLong(last, 'openai', 16 * MiB);
    expect(last?.type === 'error' && last.error.message).toContain('a piece of output item');
  }, 60_000);

  it('generate() is bounded by the same limit', async () => {
    await fake.serve([
      {
        json: {
          choices: [{ index: 0, message: { content: 'z'.repeat(MiB) }, finish_reason: 'stop' }],
        },
      },
    ]);
    const model = openai({ model: 'm', baseURL: fake.server.url, maxAnswerChars: MiB });
    const error = await model.generate(ask).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ModelError', code: 'answer_too_large' });
    expect((error as Error).message).toContain('a piece of text passed it');
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => gemini({ model: 'g', apiKey: 'k', maxAnswerChars: 0 })).toThrow(
      'gemini(options).maxAnswerChars: expected a positive integer number of characters, received number 0',
    );
  });
});
