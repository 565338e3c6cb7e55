import { describe, expect, it } from 'vitest';
import {
  anthropic,
  type GenerateRequest,
  ModelError,
  type StreamEvent,
} from '../../../../src/ai/model/index.ts';
import { collect, sseEvent, useFakeProvider } from '../../../helpers/fake-provider.ts';

const fake = useFakeProvider();

const start = fake.modelOn((url) =>
  anthropic({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL: url, initialRetryDelayMs: 1 }),
);

const messageStart = sseEvent({
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    content: [],
    model: 'claude-test',
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 25, output_tokens: 1 },
  },
});
const stopWith = (reason: string, outputTokens: number) => [
  sseEvent({
    type: 'message_delta',
    delta: { stop_reason: reason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  }),
  sseEvent({ type: 'message_stop' }),
];

const weatherTool = {
  name: 'weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const ask: GenerateRequest = { messages: [{ role: 'user', content: 'Weather in Oslo?' }] };

const message = (content: unknown[], stopReason: string) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-test',
  content,
  stop_reason: stopReason,
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 4, cache_read_input_tokens: 2 },
});

describe('anthropic: generate', () => {
  it('sends the documented Messages request', async () => {
    const model = await start({ json: message([{ type: 'text', text: 'ok' }], 'end_turn') });
    const pdf = Buffer.from('%PDF').toString('base64');
    const note = Buffer.from('plain words').toString('base64');
    await model.generate({
      system: 'Be brief.',
      messages: [
        { role: 'system', content: 'Use metric units.' },
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'weather', args: { city: 'Oslo' } },
            { type: 'tool_use', id: 'toolu_2', name: 'weather', args: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Here you go.' },
            { type: 'tool_result', toolCallId: 'toolu_1', content: '4 °C' },
            {
              type: 'tool_result',
              toolCallId: 'toolu_2',
              content: [
                { type: 'text', text: 'map:' },
                { type: 'image', mediaType: 'image/png', data: 'iVBOR' },
              ],
              isError: true,
            },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'document', mediaType: 'application/pdf', data: pdf, name: 'a.pdf' },
            { type: 'document', mediaType: 'text/plain', data: note },
          ],
        },
      ],
      tools: [weatherTool],
      toolChoice: 'required',
      temperature: 0,
    });
    const sent = fake.server.requests[0];
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-ant-test');
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.body).toEqual({
      model: 'claude-test',
      max_tokens: 4096,
      system: 'Be brief.\n\nUse metric units.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
            { type: 'tool_use', id: 'toolu_2', name: 'weather', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '4 °C' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_2',
              is_error: true,
              content: [
                { type: 'text', text: 'map:' },
                {
                  type: 'image',
                  source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' },
                },
              ],
            },
            { type: 'text', text: 'Here you go.' },
            {
              type: 'document',
              title: 'a.pdf',
              source: { type: 'base64', media_type: 'application/pdf', data: pdf },
            },
            {
              type: 'document',
              source: { type: 'text', media_type: 'text/plain', data: 'plain words' },
            },
          ],
        },
      ],
      tools: [
        {
          name: 'weather',
          description: 'Weather for a city',
          input_schema: weatherTool.parameters,
        },
      ],
      tool_choice: { type: 'any' },
      temperature: 0,
    });
  });

  it('reads text, parallel tool calls, usage (cache reads included) and stop reason', async () => {
    const model = await start({
      json: message(
        [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_2', name: 'weather', input: { city: 'Rome' } },
        ],
        'tool_use',
      ),
    });
    const result = await model.generate({ ...ask, tools: [weatherTool] });
    expect(result).toEqual({
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'weather', args: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_2', name: 'weather', args: { city: 'Rome' } },
        ],
      },
      text: 'Checking both.',
      toolCalls: [
        { id: 'toolu_1', name: 'weather', args: { city: 'Oslo' } },
        { id: 'toolu_2', name: 'weather', args: { city: 'Rome' } },
      ],
      stopReason: 'tool_calls',
      rawStopReason: 'tool_use',
      usage: { inputTokens: 12, outputTokens: 4, totalTokens: 16, cachedInputTokens: 2 },
    });
    expect(model.id).toBe('anthropic:claude-test');
  });

  it('maps max_tokens and refusal stop reasons, and sends tool_choice by name', async () => {
    const model = await start(
      { json: message([{ type: 'text', text: 'Trunc' }], 'max_tokens') },
      { json: message([], 'refusal') },
    );
    const first = await model.generate({
      ...ask,
      tools: [weatherTool],
      toolChoice: { name: 'weather' },
      maxTokens: 5,
    });
    expect(first.stopReason).toBe('max_tokens');
    expect(fake.server.requests[0].body).toMatchObject({
      max_tokens: 5,
      tool_choice: { type: 'tool', name: 'weather' },
    });
    expect((await model.generate(ask)).stopReason).toBe('content_filter');
  });
});

describe('anthropic: stream', () => {
  it('streams text and tool calls whose JSON arrives in fragments', async () => {
    const model = await start({
      sse: [
        messageStart,
        sseEvent({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'text', text: '' },
        }),
        sseEvent({ type: 'ping' }),
        sseEvent({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: 'Let me ' },
        }),
        sseEvent({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: 'check.' },
        }),
        sseEvent({ type: 'content_block_stop', index: 0 }),
        sseEvent({
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} },
        }),
        sseEvent({
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json: '' },
        }),
        sseEvent({
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json: '{"city": "Os' },
        }),
        sseEvent({
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json: 'lo"}' },
        }),
        sseEvent({ type: 'content_block_stop', index: 1 }),
        sseEvent({
          type: 'content_block_start',
          index: 2,
          content_block: { type: 'tool_use', id: 'toolu_2', name: 'weather', input: {} },
        }),
        sseEvent({
          type: 'content_block_delta',
          index: 2,
          delta: { type: 'input_json_delta', partial_json: '{"city": "Rome"}' },
        }),
        sseEvent({ type: 'content_block_stop', index: 2 }),
        ...stopWith('tool_use', 89),
      ],
    });
    const events = await collect(model.stream({ ...ask, tools: [weatherTool] }));
    expect(fake.server.requests[0].body.stream).toBe(true);
    expect(events.map((e) => e.type)).toEqual([
      'text-delta',
      'text-delta',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-delta',
      'tool-call-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'usage',
      'stop',
    ]);
    expect(events[2]).toEqual({
      type: 'tool-call-start',
      id: 'toolu_1',
      name: 'weather',
      index: 0,
    });
    expect(events[5]).toEqual({
      type: 'tool-call-end',
      index: 0,
      call: { id: 'toolu_1', name: 'weather', args: { city: 'Oslo' } },
    });
    expect(events[8]).toMatchObject({ type: 'tool-call-end', index: 1 });
    expect(events[9]).toEqual({
      type: 'usage',
      usage: { inputTokens: 25, outputTokens: 89, totalTokens: 114 },
    });
    const stop = events[10];
    expect(stop.type === 'stop' && stop.result).toMatchObject({
      text: 'Let me check.',
      stopReason: 'tool_calls',
      toolCalls: [{ id: 'toolu_1' }, { id: 'toolu_2' }],
    });
  });

  it('takes a tool input sent whole in content_block_start when no deltas follow', async () => {
    const model = await start({
      sse: [
        messageStart,
        sseEvent({
          type: 'content_block_start',
          index: 0,
          content_block: {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'weather',
            input: { city: 'Oslo' },
          },
        }),
        sseEvent({ type: 'content_block_stop', index: 0 }),
        ...stopWith('tool_use', 9),
      ],
    });
    const events = await collect(model.stream(ask));
    const end = events.find((e) => e.type === 'tool-call-end');
    expect(end?.type === 'tool-call-end' && end.call.args).toEqual({ city: 'Oslo' });
  });

  it('turns malformed streamed tool input into argsError', async () => {
    const model = await start({
      sse: [
        messageStart,
        sseEvent({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} },
        }),
        sseEvent({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: '{"city": Oslo' },
        }),
        sseEvent({ type: 'content_block_stop', index: 0 }),
        ...stopWith('tool_use', 9),
      ],
    });
    const events = await collect(model.stream(ask));
    const end = events.find((e) => e.type === 'tool-call-end');
    expect(end?.type === 'tool-call-end' && end.call.argsError).toMatch(/not valid JSON/);
    expect(events.at(-1)?.type).toBe('stop');
  });

  it('reports an error event sent mid-stream (overloaded)', async () => {
    const model = await start({
      sse: [
        messageStart,
        sseEvent({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      ],
      headers: { 'request-id': 'req_9' },
    });
    const events = await collect(model.stream(ask));
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error).toMatchObject({
      name: 'ModelError',
      providerMessage: 'Overloaded',
      code: 'overloaded_error',
      requestId: 'req_9',
    });
  });

  it('ends with an AbortError event when aborted mid-stream', async () => {
    const model = await start({
      sse: [
        messageStart,
        sseEvent({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'text', text: '' },
        }),
        sseEvent({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: 'Hi' },
        }),
      ],
      hang: true,
    });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const event of model.stream({ ...ask, signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'error']);
    expect(events[1].type === 'error' && events[1].error.name).toBe('AbortError');
  });
});

describe('anthropic: errors and retries', () => {
  it('turns 400 into a ModelError with the provider message and request id', async () => {
    const model = await start({
      status: 400,
      headers: { 'request-id': 'req_011' },
      json: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'messages: roles must alternate' },
      },
    });
    const error = await model.generate(ask).catch((e) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({
      provider: 'anthropic',
      status: 400,
      code: 'invalid_request_error',
      providerMessage: 'messages: roles must alternate',
      requestId: 'req_011',
    });
    expect(fake.server.requests).toHaveLength(1);
  });

  it('retries 529 overloaded and 429 with retry-after as an HTTP date, then succeeds', async () => {
    const overloaded = {
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    };
    const model = await start(
      { status: 529, headers: { 'retry-after': '0' }, json: overloaded },
      {
        status: 429,
        headers: { 'retry-after': new Date(Date.now() - 1000).toUTCString() },
        json: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } },
      },
      { json: message([{ type: 'text', text: 'ok' }], 'end_turn') },
    );
    expect((await model.generate(ask)).text).toBe('ok');
    expect(fake.server.requests).toHaveLength(3);
  });

  it('honours x-should-retry: false', async () => {
    const model = await start({
      status: 500,
      headers: { 'x-should-retry': 'false' },
      json: { type: 'error', error: { type: 'api_error', message: 'Internal' } },
    });
    await expect(model.generate(ask)).rejects.toMatchObject({ status: 500, retryable: false });
    expect(fake.server.requests).toHaveLength(1);
  });

  it('needs a model name', () => {
    expect(() => anthropic({} as never)).toThrow(
      'anthropic(options).model: expected a non-empty model name, received undefined',
    );
    expect(() => anthropic({ model: '' })).toThrow(
      '(options).model: expected a non-empty model name, received string ""',
    );
  });

  it('needs an API key, from options or ANTHROPIC_API_KEY', async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      await fake.serve([{ json: message([], 'end_turn') }]);
      await expect(
        anthropic({ model: 'c', baseURL: fake.server.url }).generate(ask),
      ).rejects.toThrow(
        'anthropic: no API key: pass { apiKey } or set the ANTHROPIC_API_KEY environment variable',
      );
      process.env.ANTHROPIC_API_KEY = 'sk-env';
      await anthropic({ model: 'c', baseURL: fake.server.url }).generate(ask);
      expect(fake.server.requests[0].headers['x-api-key']).toBe('sk-env');
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});

describe('anthropic: extended thinking', () => {
  const thinking = {
    type: 'thinking',
    thinking: 'Oslo, so look it up.',
    signature: 'EqQBCgIYAhIM',
  };
  const redacted = { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' };

  it('sends thinking with its budget, and checks the budget and temperature before sending', async () => {
    const model = await start({ json: message([{ type: 'text', text: 'ok' }], 'end_turn') });
    await model.generate({
      ...ask,
      maxTokens: 4000,
      reasoning: { budgetTokens: 2000 },
      temperature: 1,
    });
    expect(fake.server.requests[0].body).toMatchObject({
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      temperature: 1,
    });
    await expect(
      model.generate({ ...ask, reasoning: { budgetTokens: 2000 }, temperature: 0.2 }),
    ).rejects.toThrow(
      'anthropic: request.temperature: expected 1 or none with extended thinking (reasoning.budgetTokens), received 0.2',
    );
    await expect(model.generate({ ...ask, reasoning: { budgetTokens: 500 } })).rejects.toThrow(
      'anthropic: request.reasoning.budgetTokens: expected at least 1024 and less than max_tokens (4096), received 500',
    );
    await expect(
      model.generate({
        ...ask,
        tools: [weatherTool],
        toolChoice: 'required',
        reasoning: { budgetTokens: 2000 },
      }),
    ).rejects.toThrow(
      `anthropic: request.toolChoice: expected 'auto' or 'none' with extended thinking (reasoning.budgetTokens), received "required"`,
    );
    await expect(model.generate({ ...ask, temperature: 1.5 })).rejects.toThrow(
      'anthropic: request.temperature: expected a number from 0 to 1, received 1.5',
    );
    expect(fake.server.requests).toHaveLength(1);
  });

  it('omits temperature when none is given', async () => {
    const model = await start({ json: message([{ type: 'text', text: 'ok' }], 'end_turn') });
    await model.generate({ ...ask, reasoning: { budgetTokens: 1024 } });
    expect(fake.server.requests[0].body).not.toHaveProperty('temperature');
  });

  it('keeps thinking and redacted_thinking blocks verbatim and sends them back before the tool_use', async () => {
    const model = await start(
      {
        json: message(
          [
            thinking,
            redacted,
            { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
          ],
          'tool_use',
        ),
      },
      { json: message([{ type: 'text', text: '4 °C' }], 'end_turn') },
    );
    const first = await model.generate({
      ...ask,
      tools: [weatherTool],
      reasoning: { budgetTokens: 1024 },
    });
    expect(first.message.content).toEqual([
      {
        type: 'reasoning',
        text: thinking.thinking,
        signature: thinking.signature,
        provider: 'anthropic',
      },
      { type: 'reasoning', text: '', redacted: redacted.data, provider: 'anthropic' },
      { type: 'tool_use', id: 'toolu_1', name: 'weather', args: { city: 'Oslo' } },
    ]);
    expect(first.text).toBe('');
    await model.generate({
      ...ask,
      messages: [
        ...ask.messages,
        first.message,
        {
          role: 'user',
          content: [{ type: 'tool_result', toolCallId: 'toolu_1', content: '4 °C' }],
        },
      ],
    });
    expect(fake.server.requests[1].body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        thinking,
        redacted,
        { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
      ],
    });
  });

  it('does not send another provider’s reasoning', async () => {
    const model = await start({ json: message([{ type: 'text', text: 'ok' }], 'end_turn') });
    await model.generate({
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'hmm', provider: 'gemini' },
            { type: 'text', text: 'Hello' },
          ],
        },
        { role: 'user', content: 'Bye' },
      ],
    });
    expect(fake.server.requests[0].body.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello' }],
    });
  });

  it('streams thinking as reasoning-delta events and keeps the block with its signature', async () => {
    const model = await start({
      sse: [
        messageStart,
        sseEvent({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        }),
        sseEvent({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'thinking_delta', thinking: 'Oslo, ' },
        }),
        sseEvent({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'thinking_delta', thinking: 'so look it up.' },
        }),
        sseEvent({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' },
        }),
        sseEvent({ type: 'content_block_stop', index: 0 }),
        sseEvent({ type: 'content_block_start', index: 1, content_block: redacted }),
        sseEvent({ type: 'content_block_stop', index: 1 }),
        sseEvent({
          type: 'content_block_start',
          index: 2,
          content_block: { type: 'text', text: '' },
        }),
        sseEvent({
          type: 'content_block_delta',
          index: 2,
          delta: { type: 'text_delta', text: 'Cold.' },
        }),
        sseEvent({ type: 'content_block_stop', index: 2 }),
        ...stopWith('end_turn', 30),
      ],
    });
    const events = await collect(model.stream({ ...ask, reasoning: { budgetTokens: 1024 } }));
    expect(events.filter((e) => e.type === 'reasoning-delta' || e.type === 'text-delta')).toEqual([
      { type: 'reasoning-delta', text: 'Oslo, ' },
      { type: 'reasoning-delta', text: 'so look it up.' },
      { type: 'text-delta', text: 'Cold.' },
    ]);
    const stop = events.at(-1);
    expect(stop?.type === 'stop' && stop.result.message.content).toEqual([
      {
        type: 'reasoning',
        text: thinking.thinking,
        signature: thinking.signature,
        provider: 'anthropic',
      },
      { type: 'reasoning', text: '', redacted: redacted.data, provider: 'anthropic' },
      { type: 'text', text: 'Cold.' },
    ]);
  });
});

describe('anthropic: pause_turn, caching and usage', () => {
  // A web search the server ran before pausing, as the Messages API documents it.
  const search = {
    type: 'server_tool_use',
    id: 'srvtoolu_1',
    name: 'web_search',
    input: { query: 'Oslo weather' },
  };
  const found = {
    type: 'web_search_tool_result',
    tool_use_id: 'srvtoolu_1',
    content: [
      { type: 'web_search_result', url: 'https://yr.no', title: 'Oslo', encrypted_content: 'Eq' },
    ],
  };

  it('continues a paused turn with its blocks sent back verbatim and returns one merged turn', async () => {
    const model = await start(
      { json: message([{ type: 'text', text: 'Searching. ' }, search, found], 'pause_turn') },
      { json: message([{ type: 'text', text: 'Found it.' }], 'end_turn') },
    );
    const result = await model.generate(ask);
    expect(fake.server.requests[1].body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Searching. ' }, search, found] },
    ]);
    expect(result).toMatchObject({
      text: 'Searching. Found it.',
      stopReason: 'end',
      rawStopReason: 'end_turn',
      usage: { inputTokens: 24, outputTokens: 8, totalTokens: 32, cachedInputTokens: 4 },
    });
  });

  it('continues a paused streamed turn, rebuilding its blocks, with one usage and one stop event', async () => {
    const model = await start(
      {
        sse: [
          messageStart,
          sseEvent({
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'text', text: '' },
          }),
          sseEvent({
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: 'Searching. ' },
          }),
          sseEvent({ type: 'content_block_stop', index: 0 }),
          sseEvent({
            type: 'content_block_start',
            index: 1,
            content_block: { ...search, input: {} },
          }),
          sseEvent({
            type: 'content_block_delta',
            index: 1,
            delta: { type: 'input_json_delta', partial_json: '{"query":' },
          }),
          sseEvent({
            type: 'content_block_delta',
            index: 1,
            delta: { type: 'input_json_delta', partial_json: '"Oslo weather"}' },
          }),
          sseEvent({ type: 'content_block_stop', index: 1 }),
          sseEvent({ type: 'content_block_start', index: 2, content_block: found }),
          sseEvent({ type: 'content_block_stop', index: 2 }),
          ...stopWith('pause_turn', 3),
        ],
      },
      {
        sse: [
          messageStart,
          sseEvent({
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'text', text: 'Found.' },
          }),
          sseEvent({ type: 'content_block_stop', index: 0 }),
          ...stopWith('end_turn', 2),
        ],
      },
    );
    const events = await collect(model.stream(ask));
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'text-delta', 'usage', 'stop']);
    const stop = events.at(-1);
    expect(stop?.type === 'stop' && stop.result).toMatchObject({
      text: 'Searching. Found.',
      stopReason: 'end',
      usage: { inputTokens: 50, outputTokens: 5 },
    });
    expect(fake.server.requests[1].body.messages.at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Searching. ' }, search, found],
    });
  });

  it('gives up on a turn that stays paused, saying so', async () => {
    const paused = { json: message([{ type: 'text', text: '.' }], 'pause_turn') };
    const model = await start(...Array.from({ length: 9 }, () => paused));
    const result = await model.generate(ask);
    expect(fake.server.requests).toHaveLength(9);
    expect(result.stopReason).toBe('other');
    expect(result.warnings).toEqual([
      { message: 'the turn was still paused (pause_turn) after 8 continuations' },
    ]);
  });

  it('gives up on a streamed turn that stays paused, by the same rule', async () => {
    const paused = {
      sse: [
        messageStart,
        sseEvent({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'text', text: '.' },
        }),
        sseEvent({ type: 'content_block_stop', index: 0 }),
        ...stopWith('pause_turn', 1),
      ],
    };
    const model = await start(...Array.from({ length: 9 }, () => paused));
    const events = await collect(model.stream(ask));
    expect(fake.server.requests).toHaveLength(9);
    expect(events.filter((e) => e.type === 'usage' || e.type === 'stop')).toHaveLength(2);
    const stop = events.at(-1);
    expect(stop?.type === 'stop' && stop.result).toMatchObject({
      stopReason: 'other',
      warnings: [{ message: 'the turn was still paused (pause_turn) after 8 continuations' }],
    });
  });

  it('reports cache reads and writes apart, and thinking tokens', async () => {
    const model = await start({
      json: {
        ...message([{ type: 'text', text: 'ok' }], 'end_turn'),
        usage: {
          input_tokens: 10,
          output_tokens: 50,
          cache_read_input_tokens: 200,
          cache_creation_input_tokens: 30,
          output_tokens_details: { thinking_tokens: 40 },
        },
      },
    });
    expect((await model.generate(ask)).usage).toEqual({
      inputTokens: 240,
      outputTokens: 50,
      totalTokens: 290,
      cachedInputTokens: 200,
      cacheWriteTokens: 30,
      reasoningTokens: 40,
    });
  });

  it('marks the system prompt and the last tool with cache_control when cacheControl is on', async () => {
    await fake.serve([{ json: message([{ type: 'text', text: 'ok' }], 'end_turn') }]);
    const model = anthropic({
      model: 'claude-test',
      apiKey: 'k',
      baseURL: fake.server.url,
      cacheControl: true,
    });
    await model.generate({
      ...ask,
      system: 'Be brief.',
      tools: [weatherTool, { ...weatherTool, name: 'forecast' }],
    });
    const body = fake.server.requests[0].body;
    expect(body.system).toEqual([
      { type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(body.tools[0]).not.toHaveProperty('cache_control');
    expect(body.tools[1].cache_control).toEqual({ type: 'ephemeral' });
  });

  it('sends output_config for output and effort, and providerOptions last', async () => {
    const model = await start({
      json: message([{ type: 'text', text: '{"city":"Oslo"}' }], 'end_turn'),
    });
    const result = await model.generate({
      ...ask,
      reasoning: { effort: 'medium' },
      output: { schema: weatherTool.parameters },
      providerOptions: { anthropic: { stop_sequences: ['END'], max_tokens: 99 } },
    });
    expect(fake.server.requests[0].body).toMatchObject({
      max_tokens: 99,
      stop_sequences: ['END'],
      output_config: {
        effort: 'medium',
        format: { type: 'json_schema', schema: weatherTool.parameters },
      },
    });
    expect(result.output).toEqual({ city: 'Oslo' });
  });
});
