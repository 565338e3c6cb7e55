/**
 * Hostile provider responses to the reasoning, pause and structured-output paths of the
 * OpenAI and Anthropic adapters: nothing a server sends may crash the process, loop
 * forever or pollute a prototype.
 */
import { describe, expect, it } from 'vitest';
import { anthropic, openai } from '../../src/ai/model/index.ts';
import { collect, type Reply, sseEvent, useFakeProvider } from '../helpers/fake-provider.ts';

const fake = useFakeProvider();

const ask = { messages: [{ role: 'user' as const, content: 'Hi' }] };

async function claude(...replies: Reply[]) {
  await fake.serve(replies);
  return anthropic({ model: 'c', apiKey: 'k', baseURL: fake.server.url, initialRetryDelayMs: 1 });
}

describe('hostile provider responses', () => {
  it('anthropic: thinking blocks with fields of the wrong type become empty reasoning, not a crash', async () => {
    const model = await claude({
      json: {
        content: [
          { type: 'thinking', thinking: { toString: 1 }, signature: 42 },
          { type: 'redacted_thinking', data: ['x'] },
          { type: 'text', text: 'ok' },
        ],
        stop_reason: 'end_turn',
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    });
    const result = await model.generate(ask);
    expect(result.message.content).toEqual([
      { type: 'reasoning', text: '', provider: 'anthropic' },
      { type: 'reasoning', text: '', redacted: '', provider: 'anthropic' },
      { type: 'text', text: 'ok' },
    ]);
  });

  it('anthropic: thinking and signature deltas for blocks that never started are ignored', async () => {
    const model = await claude({
      sse: [
        sseEvent({ type: 'message_start', message: { usage: { input_tokens: 1 } } }),
        sseEvent({
          type: 'content_block_delta',
          index: 5,
          delta: { type: 'thinking_delta', thinking: 'x' },
        }),
        sseEvent({
          type: 'content_block_delta',
          index: 5,
          delta: { type: 'signature_delta', signature: 's' },
        }),
        sseEvent({
          type: 'message_delta',
          delta: { stop_reason: 'end_turn' },
          usage: { output_tokens: 1 },
        }),
        sseEvent({ type: 'message_stop' }),
      ],
    });
    const events = await collect(model.stream(ask));
    expect(events.map((e) => e.type)).toEqual(['usage', 'stop']);
  });

  it('anthropic: a server that pauses every turn gets a bounded number of continuations', async () => {
    const paused = {
      json: {
        content: [],
        stop_reason: 'pause_turn',
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    };
    const model = await claude(...Array.from({ length: 20 }, () => paused));
    const result = await model.generate(ask);
    expect(fake.server.requests.length).toBeLessThanOrEqual(9);
    expect(result.stopReason).toBe('other');
  });

  it('openai: a structured answer with a __proto__ key does not pollute prototypes', async () => {
    await fake.serve([
      {
        json: {
          choices: [
            {
              message: { role: 'assistant', content: '{"__proto__":{"polluted":true},"a":1}' },
              finish_reason: 'stop',
            },
          ],
        },
      },
    ]);
    const model = openai({ model: 'g', apiKey: 'k', baseURL: fake.server.url });
    const result = await model.generate({
      ...ask,
      output: { schema: { type: 'object', properties: { a: { type: 'number' } } } },
    });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect((result.output as { a: number }).a).toBe(1);
  });
});
