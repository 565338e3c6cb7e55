/**
 * Hostile Responses API servers: malformed items and events must end in a clear
 * `ModelError` or a usable turn, never a crash, and an item's odd keys must not reach a
 * prototype when it is kept and sent back.
 */
import { describe, expect, it } from 'vitest';
import { type ContentPart, ModelError, openai } from '../../src/ai/model/index.ts';
import {
  collect,
  type FakeProvider,
  FLOOD_MEMORY_BOUND,
  flood,
  type Reply,
  SSE_HEADERS,
  scriptedServer,
  sseData,
  useFakeProvider,
} from '../helpers/fake-provider.ts';

const fake = useFakeProvider();

const ask = { messages: [{ role: 'user' as const, content: 'Hi' }] };

async function model(...replies: Reply[]) {
  await fake.serve(replies);
  return openai({ model: 'gpt-5', apiKey: 'k', baseURL: fake.server.url, api: 'responses' });
}

describe('hostile Responses servers', () => {
  it('items with fields of the wrong type become empty parts, not a crash', async () => {
    const gpt = await model({
      json: {
        status: 'completed',
        output: [
          { type: 'reasoning', id: 7, summary: 'not a list', content: { text: 1 } },
          { type: 'message', content: [{ type: 'output_text', text: { evil: 1 } }, null, 5] },
          { type: 'function_call', call_id: 42, name: ['x'], arguments: { city: 'Oslo' } },
          { type: 'mystery_call', status: 3 },
          'nonsense',
        ],
        usage: { input_tokens: 'many', output_tokens: Number.NaN },
      },
    });
    const result = await gpt.generate(ask);
    expect(result.text).toBe('');
    // A count that is not one is estimated (decision 176); NaN is sent as null, so absent.
    expect(result.usage).toEqual({ inputTokens: 7, outputTokens: 0, totalTokens: 7 });
    expect(result.warnings?.at(-1)?.message).toContain('inputTokens is estimated (7)');
    expect(result.toolCalls).toEqual([{ id: '', name: '', args: {} }]);
    expect((result.message.content as ContentPart[]).map((p) => p.type)).toEqual([
      'reasoning',
      'tool_use',
      'tool_use',
      'tool_result',
    ]);
  });

  it('an item with a __proto__ key is kept as its own key and sent back as it came', async () => {
    const item =
      '{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"e","__proto__":{"polluted":true}}';
    const reply = `{"status":"completed","output":[${item},{"type":"function_call","id":"fc_1","call_id":"c1","name":"t","arguments":"{}"}]}`;
    await fake.serve([{ json: JSON.parse(reply) }]);
    const gpt = openai({ model: 'gpt-5', apiKey: 'k', baseURL: fake.server.url, api: 'responses' });
    const result = await gpt.generate(ask);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await fake.server.close();
    await fake.serve([{ json: { status: 'completed', output: [] } }]);
    const again = openai({
      model: 'gpt-5',
      apiKey: 'k',
      baseURL: fake.server.url,
      api: 'responses',
    });
    await again.generate({
      messages: [
        ...ask.messages,
        result.message,
        { role: 'user', content: [{ type: 'tool_result', toolCallId: 'c1', content: 'ok' }] },
      ],
    });
    expect(JSON.stringify(fake.server.requests[0].body.input[1])).toBe(item);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a stream event that is not JSON ends the stream with one ModelError', async () => {
    const gpt = await model({ sse: ['data: {"type":"response.output_text.delta",'] });
    const events = await collect(gpt.stream(ask));
    expect(events).toHaveLength(1);
    expect(events[0].type === 'error' && events[0].error.message).toMatch(
      /^openai: a stream event was not a JSON object/,
    );
  });

  it('deltas for items that never started are kept or ignored, and the turn still ends', async () => {
    const gpt = await model({
      sse: [
        sseData({
          type: 'response.output_text.delta',
          output_index: 9,
          item_id: 'msg_x',
          delta: 'Hi',
        }),
        sseData({ type: 'response.function_call_arguments.delta', output_index: 4, delta: '{"a"' }),
        sseData({ type: 'response.reasoning_summary_text.delta', output_index: 3, delta: 'hm' }),
        sseData({ type: 'response.output_item.done', output_index: 4 }),
        sseData({ type: 'response.unknown_event', output_index: 'x' }),
        sseData({ type: 'response.completed', response: { status: 'completed', output: [] } }),
      ],
    });
    const events = await collect(gpt.stream(ask));
    const last = events.at(-1)!;
    expect(last.type).toBe('stop');
    expect(last.type === 'stop' && last.result.text).toBe('Hi');
    expect(last.type === 'stop' && last.result.toolCalls).toEqual([]);
  });

  it('a 100 MB SSE line ends the stream with a ModelError, reading stopped at the cap', async () => {
    const MiB = 1024 * 1024;
    let sent!: Promise<number>;
    const flooding: FakeProvider = await scriptedServer((res) => {
      res.writeHead(200, SSE_HEADERS);
      sent = flood(
        res,
        'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"',
        100 * 1000 * 1000,
      );
    });
    try {
      const before = process.memoryUsage();
      const gpt = openai({ model: 'gpt-5', baseURL: flooding.url, api: 'responses' });
      const events = await collect(gpt.stream(ask));
      expect(events).toHaveLength(1);
      const error = events[0].type === 'error' ? events[0].error : undefined;
      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({
        provider: 'openai',
        code: 'event_too_large',
        retryable: false,
      });
      // The client closed the connection at the cap: the server could not push the rest.
      expect(await sent).toBeLessThan(32 * MiB + 16 * MiB);
      expect(process.memoryUsage().arrayBuffers - before.arrayBuffers).toBeLessThan(
        FLOOD_MEMORY_BOUND,
      );
    } finally {
      await flooding.close();
    }
  }, 60_000);
});
