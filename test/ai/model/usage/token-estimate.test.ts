import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import {
  estimateMessageTokens,
  estimateTokens,
  type ModelMessage,
  scriptedModel,
  type ToolDefinition,
} from '../../../../src/ai/model/index.ts';

/** The tokenizer's own count, the reference every estimate is checked against. */
const o200k = (text: string) => encode(text, { disallowedSpecial: new Set() }).length;
const GPT = 'openai:gpt-4o';

describe('estimateMessageTokens', () => {
  it('counts an OpenAI message as its o200k_base tokens plus 3 framing tokens', () => {
    const text = 'Summarise the quarterly report: revenue rose 12%, costs fell — naïve café 東京.';
    expect(estimateMessageTokens({ role: 'user', content: text }, GPT)).toBe(o200k(text) + 3);
    expect(
      estimateMessageTokens(
        {
          role: 'assistant',
          content: [
            { type: 'text', text },
            { type: 'text', text: 'Second part.' },
          ],
        },
        'gpt-4.1',
      ),
    ).toBe(o200k(text) + o200k('Second part.') + 3);
  });

  it('counts a tool call as its id, name and JSON arguments, and a result as its id and content', () => {
    const args = { city: 'Oslo', days: [1, 2, 3], units: 'metric' };
    const call: ModelMessage = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'call_1', name: 'weather', args }],
    };
    expect(estimateMessageTokens(call, GPT)).toBe(
      o200k('call_1') + o200k('weather') + o200k(JSON.stringify(args)) + 8 + 3,
    );
    const rawArgs: ModelMessage = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'c', name: 'w', args: '{"city": "Os' }],
    };
    expect(estimateMessageTokens(rawArgs, GPT)).toBe(
      o200k('c') + o200k('w') + o200k('{"city": "Os') + 8 + 3,
    );
    const output = 'Oslo: 4 °C, light rain, wind 5 m/s from the north-west.';
    const result: ModelMessage = {
      role: 'user',
      content: [
        { type: 'tool_result', toolCallId: 'call_1', content: output },
        {
          type: 'tool_result',
          toolCallId: 'call_2',
          content: [
            { type: 'text', text: output },
            { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
          ],
        },
      ],
    };
    expect(estimateMessageTokens(result, GPT)).toBe(
      o200k('call_1') + o200k(output) + 5 + o200k('call_2') + o200k(output) + 765 + 5 + 3,
    );
  });

  it('prices an image at each family’s documented flat figure', () => {
    const image: ModelMessage = {
      role: 'user',
      content: [{ type: 'image', mediaType: 'image/jpeg', data: '/9j/4AAQ' }],
    };
    expect(estimateMessageTokens(image, GPT)).toBe(765 + 3);
    expect(estimateMessageTokens(image, 'anthropic:claude-sonnet-4-5')).toBe(1600 + 4);
    expect(estimateMessageTokens(image, 'gemini:gemini-2.5-flash')).toBe(1120 + 4);
  });

  it('scales text for families whose tokenizer is not public, and uses the largest figures without a model', () => {
    const text = 'The committee will reconvene on Thursday to discuss the remaining items.';
    const message: ModelMessage = { role: 'user', content: text };
    const n = o200k(text);
    expect(estimateMessageTokens(message, 'anthropic:claude-opus-4-1')).toBe(
      Math.ceil(n * 1.3) + 4,
    );
    expect(estimateMessageTokens(message, 'claude-haiku-4-5')).toBe(Math.ceil(n * 1.3) + 4);
    expect(estimateMessageTokens(message, 'gemini:gemini-2.5-pro')).toBe(Math.ceil(n * 1.15) + 4);
    expect(estimateMessageTokens(message, 'models/gemini-2.5-pro')).toBe(Math.ceil(n * 1.15) + 4);
    expect(estimateMessageTokens(message)).toBe(Math.ceil(n * 1.3) + 4);
    expect(estimateMessageTokens(message, scriptedModel([]))).toBe(Math.ceil(n * 1.3) + 4);
    expect(estimateMessageTokens(message, scriptedModel([], { id: 'openai:gpt-5' }))).toBe(n + 3);
    // GPT-4 and GPT-3.5 count with cl100k_base, a few percent more than o200k_base.
    expect(estimateMessageTokens(message, 'openai:gpt-4-turbo')).toBe(Math.ceil(n * 1.1) + 3);
    expect(estimateMessageTokens(message, 'gpt-3.5-turbo')).toBe(Math.ceil(n * 1.1) + 3);
    expect(estimateMessageTokens(message, 'gpt-4o')).toBe(n + 3);
    expect(estimateMessageTokens(message, 'gpt-4.1-mini')).toBe(n + 3);
  });

  it('counts reasoning text, and redacted reasoning at one token per 4 characters', () => {
    const message: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'The user wants the forecast, so call weather.' },
        { type: 'reasoning', text: '', redacted: 'x'.repeat(400) },
      ],
    };
    expect(estimateMessageTokens(message, GPT)).toBe(
      o200k('The user wants the forecast, so call weather.') + 100 + 3,
    );
  });

  it('counts a text document by its text and a PDF by its size, at least one page', () => {
    const text = 'Clause 4: the tenant keeps the garden tidy.';
    const doc = (mediaType: string, data: string): ModelMessage => ({
      role: 'user',
      content: [{ type: 'document', mediaType, data }],
    });
    const b64 = Buffer.from(text).toString('base64');
    expect(estimateMessageTokens(doc('text/plain', b64), GPT)).toBe(o200k(text) + 3);
    expect(estimateMessageTokens(doc('application/pdf', b64), GPT)).toBe(1500 + 3);
    const big = Buffer.alloc(320_000).toString('base64');
    expect(estimateMessageTokens(doc('application/pdf', big), GPT)).toBe(10_000 + 3);
  });

  it('counts text that looks like a special token as plain text, as the APIs do', () => {
    const text = 'an <|endoftext|> marker and <|im_start|> too';
    expect(estimateMessageTokens({ role: 'user', content: text }, GPT)).toBe(o200k(text) + 3);
  });

  it('stays bounded on a long run without spaces, erring high by at most one token per 64 characters', () => {
    const run = 'a'.repeat(100_000);
    const estimate = estimateMessageTokens({ role: 'user', content: run }, GPT) - 3;
    // 'a' × 8 is one o200k token; counting the run whole takes seconds (quadratic).
    expect(estimate).toBeGreaterThanOrEqual(12_500);
    expect(estimate).toBeLessThanOrEqual(12_500 + Math.ceil(100_000 / 64));
    const mixed = `Header line.\n${'x9'.repeat(600)} trailing words, then ${' '.repeat(300)}end.`;
    const exact = o200k(mixed);
    const counted = estimateMessageTokens({ role: 'user', content: mixed }, GPT) - 3;
    expect(counted).toBeGreaterThanOrEqual(exact);
    expect(counted).toBeLessThanOrEqual(exact + Math.ceil(1500 / 64) + 2);
    const cjk = '漢字かな交じり文'.repeat(40_000);
    expect(estimateMessageTokens({ role: 'user', content: cjk }, GPT)).toBeGreaterThan(
      cjk.length / 3,
    );
  });

  it('estimates a text longer than 64 KiB from samples, within 3% of the exact count and not below it by more than 1%', () => {
    const words = ['report', 'revenue', 'the', 'of', 'quarterly', 'growth', '2026', 'Oslo', '—'];
    let seed = 7;
    const parts: string[] = [];
    for (let i = 0; i < 60_000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      parts.push(words[seed % words.length]);
    }
    const text = parts.join(' ');
    expect(text.length).toBeGreaterThan(64 * 1024);
    const exact = o200k(text);
    const estimate = estimateMessageTokens({ role: 'user', content: text }, GPT) - 3;
    expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.03);
    expect(estimate).toBeGreaterThanOrEqual(exact * 0.99);
  });

  it('notices a message whose content was replaced or grew, though the count is cached per message', () => {
    const message: ModelMessage = { role: 'user', content: 'short' };
    expect(estimateMessageTokens(message, GPT)).toBe(o200k('short') + 3);
    message.content = 'a rather longer sentence than before';
    expect(estimateMessageTokens(message, GPT)).toBe(
      o200k('a rather longer sentence than before') + 3,
    );
    const parts: ModelMessage = { role: 'user', content: [{ type: 'text', text: 'one' }] };
    expect(estimateMessageTokens(parts, GPT)).toBe(o200k('one') + 3);
    (parts.content as { type: 'text'; text: string }[]).push({ type: 'text', text: 'two' });
    expect(estimateMessageTokens(parts, GPT)).toBe(o200k('one') + o200k('two') + 3);
  });

  it('counts circular tool arguments without throwing', () => {
    const args: Record<string, unknown> = {};
    args.self = args;
    const message: ModelMessage = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'c', name: 'w', args }],
    };
    expect(estimateMessageTokens(message, GPT)).toBeGreaterThan(0);
  });

  it('refuses what is not a message or a model with a TypeError naming what was expected', () => {
    expect(() => estimateMessageTokens(null as never, GPT)).toThrow(
      /estimateMessageTokens\(message\): expected a message \{ role, content \}, received null/,
    );
    expect(() => estimateMessageTokens({ role: 'user', content: 'x' }, 42 as never)).toThrow(
      /estimateMessageTokens: model: expected a Model or a model name, received number 42/,
    );
    expect(() => estimateTokens({} as never)).toThrow(
      /estimateTokens\(request\): expected \{ messages: ModelMessage\[\]/,
    );
  });
});

describe('estimateTokens', () => {
  const tool: ToolDefinition = {
    name: 'weather',
    description: 'The forecast for a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  };
  const messages: ModelMessage[] = [
    { role: 'user', content: 'Weather in Oslo?' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'weather', args: {} }] },
  ];

  it('adds the system prompt, the tool definitions’ JSON, the tool preamble and the reply priming', () => {
    const system = 'You are a terse assistant.';
    const toolJson = JSON.stringify({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    });
    const perMessages = messages.reduce((sum, m) => sum + estimateMessageTokens(m, GPT), 0);
    expect(estimateTokens({ messages, system, tools: [tool] }, GPT)).toBe(
      3 + perMessages + o200k(system) + 3 + o200k(toolJson) + 8 + 12,
    );
    expect(estimateTokens({ messages }, GPT)).toBe(3 + perMessages);
    const claude = 'anthropic:claude-sonnet-4-5';
    const claudeMessages = messages.reduce((sum, m) => sum + estimateMessageTokens(m, claude), 0);
    expect(estimateTokens({ messages, tools: [tool] }, claude)).toBe(
      3 + claudeMessages + Math.ceil((o200k(toolJson) + 8) * 1.3) + 346,
    );
  });
});
