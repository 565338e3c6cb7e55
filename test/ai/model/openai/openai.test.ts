import { describe, expect, it } from 'vitest';
import {
  type GenerateRequest,
  ModelError,
  openai,
  type StreamEvent,
} from '../../../../src/ai/model/index.ts';
import { chatChunk, collect, sseData, useFakeProvider } from '../../../helpers/fake-provider.ts';

const fake = useFakeProvider();

const start = fake.modelOn((url) =>
  openai({ model: 'gpt-test', apiKey: 'sk-test', baseURL: `${url}/v1`, initialRetryDelayMs: 1 }),
);

const weatherTool = {
  name: 'weather',
  description: 'Weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer' } },
    required: ['city'],
  },
};

const ask: GenerateRequest = { messages: [{ role: 'user', content: 'Weather in Oslo?' }] };

const completion = (message: Record<string, unknown>, finish: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
});

describe('openai: generate', () => {
  it('sends the documented Chat Completions request', async () => {
    const model = await start({ json: completion({ content: 'Hi' }, 'stop') });
    await model.generate({
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'call_1', name: 'weather', args: { city: 'Oslo' } },
            { type: 'tool_use', id: 'call_2', name: 'weather', args: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolCallId: 'call_1', content: '4 °C' },
            {
              type: 'tool_result',
              toolCallId: 'call_2',
              content: [{ type: 'text', text: 'down' }],
              isError: true,
            },
            { type: 'image', mediaType: 'image/png', data: 'iVBOR' },
            { type: 'document', mediaType: 'application/pdf', data: 'JVBER', name: 'a.pdf' },
          ],
        },
      ],
      tools: [weatherTool],
      toolChoice: { name: 'weather' },
      maxTokens: 100,
      temperature: 0.2,
    });
    const sent = fake.server.requests[0];
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'weather', arguments: '{"city":"Oslo"}' },
            },
            {
              id: 'call_2',
              type: 'function',
              function: { name: 'weather', arguments: '{"city":"Rome"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '4 °C' },
        { role: 'tool', tool_call_id: 'call_2', content: 'Error: down' },
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
            {
              type: 'file',
              file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBER' },
            },
          ],
        },
      ],
      tools: [{ type: 'function', function: weatherTool }],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      max_completion_tokens: 100,
      temperature: 0.2,
    });
  });

  it('reads text, usage and stop reason', async () => {
    const model = await start({ json: completion({ content: 'Sunny.' }, 'stop') });
    const result = await model.generate(ask);
    expect(result).toEqual({
      message: { role: 'assistant', content: [{ type: 'text', text: 'Sunny.' }] },
      text: 'Sunny.',
      toolCalls: [],
      stopReason: 'end',
      rawStopReason: 'stop',
      usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 },
    });
    expect(model.id).toBe('openai:gpt-test');
  });

  it('reads parallel tool calls, and malformed arguments become argsError', async () => {
    const model = await start({
      json: completion(
        {
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'weather', arguments: '{"city":"Oslo"}' },
            },
            { id: 'c2', type: 'function', function: { name: 'weather', arguments: '{"city":' } },
          ],
        },
        'tool_calls',
      ),
    });
    const result = await model.generate({ ...ask, tools: [weatherTool] });
    expect(result.stopReason).toBe('tool_calls');
    expect(result.toolCalls[0]).toEqual({ id: 'c1', name: 'weather', args: { city: 'Oslo' } });
    expect(result.toolCalls[1]).toMatchObject({ id: 'c2', name: 'weather', args: '{"city":' });
    expect(result.toolCalls[1].argsError).toMatch(/not valid JSON/);
    expect(result.message.content).toEqual([
      { type: 'tool_use', id: 'c1', name: 'weather', args: { city: 'Oslo' } },
      { type: 'tool_use', id: 'c2', name: 'weather', args: '{"city":' },
    ]);
  });

  it('maps length and content_filter stop reasons', async () => {
    const model = await start(
      { json: completion({ content: 'Trunc' }, 'length') },
      { json: completion({ content: null, refusal: 'I cannot help.' }, 'stop') },
    );
    expect((await model.generate(ask)).stopReason).toBe('max_tokens');
    const refused = await model.generate(ask);
    expect(refused).toMatchObject({ stopReason: 'content_filter', text: 'I cannot help.' });
  });
});

describe('openai: strict mode', () => {
  it('sends strict schemas, reports the rewrite, and removes the nulls it introduced', async () => {
    await fake.serve([
      {
        json: completion(
          {
            content: null,
            tool_calls: [
              {
                id: 'c1',
                type: 'function',
                function: { name: 'weather', arguments: '{"city":"Oslo","days":null}' },
              },
            ],
          },
          'tool_calls',
        ),
      },
    ]);
    const model = openai({ model: 'gpt-test', baseURL: fake.server.url, strict: true });
    const result = await model.generate({ ...ask, tools: [weatherTool] });
    expect(fake.server.requests[0].body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'weather',
          description: 'Weather for a city',
          strict: true,
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' }, days: { type: ['integer', 'null'] } },
            required: ['city', 'days'],
            additionalProperties: false,
          },
        },
      },
    ]);
    expect(result.toolCalls[0].args).toEqual({ city: 'Oslo' });
    expect(result.warnings).toEqual([
      expect.objectContaining({ tool: 'weather', path: '/properties/days', keyword: 'required' }),
    ]);
  });

  it('applies strict mode only to the named tools', async () => {
    await fake.serve([{ json: completion({ content: 'ok' }, 'stop') }]);
    const partial = openai({ model: 'm', baseURL: fake.server.url, strict: ['other'] });
    await partial.generate({
      ...ask,
      tools: [weatherTool, { ...weatherTool, name: 'other' }],
    });
    const tools = fake.server.requests[0].body.tools;
    expect(tools[0].function.strict).toBeUndefined();
    expect(tools[1].function.strict).toBe(true);
  });

  it('lets a tool definition’s own strict flag win over the provider’s', async () => {
    await fake.serve([{ json: completion({ content: 'ok' }, 'stop') }]);
    const model = openai({ model: 'm', baseURL: fake.server.url, strict: true });
    await model.generate({
      ...ask,
      tools: [{ ...weatherTool, strict: false } as typeof weatherTool, weatherTool],
    });
    const tools = fake.server.requests[0].body.tools;
    expect(tools[0].function).toEqual(weatherTool);
    expect(tools[1].function.strict).toBe(true);
  });
});

describe('openai: stream', () => {
  it('streams text deltas and usage, ending with the assembled result', async () => {
    const model = await start({
      sse: [
        chatChunk({ role: 'assistant', content: '' }),
        chatChunk({ content: 'Hel' }),
        chatChunk({ content: 'lo' }),
        chatChunk({}, 'stop'),
        sseData({
          id: 'chatcmpl-1',
          object: 'chat.completion.chunk',
          choices: [],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        }),
        'data: [DONE]',
      ],
    });
    const events = await collect(model.stream(ask));
    expect(fake.server.requests[0].body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(events.slice(0, 3)).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } },
    ]);
    const stop = events[3];
    expect(stop.type === 'stop' && stop.result).toMatchObject({ text: 'Hello', stopReason: 'end' });
    expect(events).toHaveLength(4);
  });

  it('assembles parallel tool calls whose arguments are split across chunks', async () => {
    const model = await start({
      sse: [
        chatChunk({
          role: 'assistant',
          content: null,
          tool_calls: [
            { index: 0, id: 'c1', type: 'function', function: { name: 'weather', arguments: '' } },
          ],
        }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
        chatChunk({
          tool_calls: [
            { index: 1, id: 'c2', type: 'function', function: { name: 'weather', arguments: '' } },
          ],
        }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Oslo"}' } }] }),
        chatChunk({ tool_calls: [{ index: 1, function: { arguments: '{"city":"Ro' } }] }),
        chatChunk({ tool_calls: [{ index: 1, function: { arguments: 'me"}' } }] }),
        chatChunk({}, 'tool_calls'),
        'data: [DONE]',
      ],
    });
    const events = await collect(model.stream({ ...ask, tools: [weatherTool] }));
    const ends = events.filter((e) => e.type === 'tool-call-end');
    expect(ends).toEqual([
      {
        type: 'tool-call-end',
        index: 0,
        call: { id: 'c1', name: 'weather', args: { city: 'Oslo' } },
      },
      {
        type: 'tool-call-end',
        index: 1,
        call: { id: 'c2', name: 'weather', args: { city: 'Rome' } },
      },
    ]);
    expect(events.filter((e) => e.type === 'tool-call-delta').map((e) => e.index)).toEqual([
      0, 0, 1, 1,
    ]);
    const stop = events.at(-1);
    expect(stop?.type === 'stop' && stop.result.stopReason).toBe('tool_calls');
    expect(stop?.type === 'stop' && stop.result.toolCalls.map((c) => c.id)).toEqual(['c1', 'c2']);
  });

  it('separates calls that a compatible server sends under one index with different ids', async () => {
    const model = await start({
      sse: [
        chatChunk({
          tool_calls: [{ id: 'a', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
        }),
        chatChunk({
          tool_calls: [{ id: 'b', function: { name: 'weather', arguments: '{"city":"Rome"}' } }],
        }),
        chatChunk({}, 'stop'),
        'data: [DONE]',
      ],
    });
    const events = await collect(model.stream(ask));
    const stop = events.at(-1);
    expect(stop?.type === 'stop' && stop.result).toMatchObject({
      stopReason: 'tool_calls',
      toolCalls: [
        { id: 'a', args: { city: 'Oslo' } },
        { id: 'b', args: { city: 'Rome' } },
      ],
    });
  });

  it('turns malformed streamed arguments into argsError, not a crash', async () => {
    const model = await start({
      sse: [
        chatChunk({
          tool_calls: [
            { index: 0, id: 'c1', function: { name: 'weather', arguments: '{"city":' } },
          ],
        }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: ' Oslo}' } }] }),
        chatChunk({}, 'tool_calls'),
        'data: [DONE]',
      ],
    });
    const events = await collect(model.stream(ask));
    const end = events.find((e) => e.type === 'tool-call-end');
    expect(end?.type === 'tool-call-end' && end.call).toMatchObject({
      id: 'c1',
      args: '{"city": Oslo}',
      argsError: expect.stringMatching(/not valid JSON/),
    });
    expect(events.at(-1)?.type).toBe('stop');
  });

  it('ends with an AbortError event when aborted mid-stream', async () => {
    const model = await start({ sse: [chatChunk({ content: 'partial' })], hang: true });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const event of model.stream({ ...ask, signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'error']);
    const last = events[1];
    expect(last.type === 'error' && last.error.name).toBe('AbortError');
  });

  it('closes the connection when the consumer stops reading early', async () => {
    const model = await start({ sse: [chatChunk({ content: 'first' })], hang: true });
    for await (const event of model.stream(ask)) {
      expect(event.type).toBe('text-delta');
      break;
    }
    await fake.server.closed(0);
  });

  it('reports an error sent inside the stream', async () => {
    const model = await start({
      sse: [sseData({ error: { message: 'The server had an error', type: 'server_error' } })],
    });
    const events = await collect(model.stream(ask));
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error).toMatchObject({
      name: 'ModelError',
      providerMessage: 'The server had an error',
    });
  });

  it('reports a stream cut before the model finished', async () => {
    const model = await start({ sse: [chatChunk({ content: 'cut' })] });
    const events = await collect(model.stream(ask));
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error.message).toMatch(/ended before the model finished/);
  });
});

describe('openai: errors and retries', () => {
  it('turns 401 into a ModelError with status, provider message and request id', async () => {
    const model = await start({
      status: 401,
      headers: { 'x-request-id': 'req_123' },
      json: {
        error: {
          message: 'Incorrect API key provided',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    });
    const error = await model.generate(ask).catch((e) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({
      status: 401,
      providerMessage: 'Incorrect API key provided',
      code: 'invalid_api_key',
      requestId: 'req_123',
      retryable: false,
    });
    expect(error.message).toBe('openai: 401 Incorrect API key provided (request id req_123)');
    expect(fake.server.requests).toHaveLength(1);
  });

  it('does not retry a 400, and the stream ends with the same error', async () => {
    const model = await start({
      status: 400,
      json: {
        error: { message: "Invalid value for 'tool_choice'", type: 'invalid_request_error' },
      },
    });
    const events = await collect(model.stream(ask));
    expect(events).toHaveLength(1);
    expect(events[0].type === 'error' && events[0].error).toMatchObject({
      status: 400,
      code: 'invalid_request_error',
    });
  });

  it('retries a 429 honouring retry-after, then succeeds', async () => {
    const model = await start(
      { status: 429, headers: { 'retry-after': '0' }, json: { error: { message: 'Rate limit' } } },
      { json: completion({ content: 'ok' }, 'stop') },
    );
    const result = await model.generate(ask);
    expect(result.text).toBe('ok');
    expect(fake.server.requests).toHaveLength(2);
  });

  it('gives up after maxRetries 5xx answers, saying so', async () => {
    const failing = { status: 503, json: { error: { message: 'overloaded' } } };
    await fake.serve([failing, failing, failing]);
    const model = openai({
      model: 'm',
      baseURL: fake.server.url,
      maxRetries: 2,
      initialRetryDelayMs: 1,
    });
    const error = await model.generate(ask).catch((e) => e);
    expect(error).toMatchObject({ name: 'ModelError', status: 503, retryable: true });
    expect(error.message).toBe('openai: 503 overloaded after 2 retries');
    expect(fake.server.requests).toHaveLength(3);
  });

  it('aborts during a backoff wait', async () => {
    await fake.serve([{ status: 500, headers: { 'retry-after': '30' }, json: {} }]);
    const model = openai({ model: 'm', baseURL: fake.server.url });
    const controller = new AbortController();
    const pending = model.generate({ ...ask, signal: controller.signal });
    while (fake.server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    // Give the client time to read the 500 and start its 30 s wait; an abort that still
    // lands during the fetch also rejects the same way, and the test never waits 30 s.
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('needs an API key for api.openai.com, but not for a custom baseURL', async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      await expect(openai({ model: 'gpt-4o' }).generate(ask)).rejects.toThrow(
        /no API key: pass \{ apiKey \} or set the OPENAI_API_KEY/,
      );
      const ok = { json: completion({ content: 'ok' }, 'stop') };
      await fake.serve([ok, ok]);
      await openai({ model: 'llama', baseURL: fake.server.url }).generate(ask);
      expect(fake.server.requests[0].headers.authorization).toBeUndefined();
      process.env.OPENAI_API_KEY = 'sk-env';
      await openai({ model: 'llama', baseURL: fake.server.url }).generate(ask);
      expect(fake.server.requests[1].headers.authorization).toBe('Bearer sk-env');
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it('rejects malformed requests and options with clear errors', async () => {
    expect(() => openai({} as never)).toThrow(
      /openai\(options\).model: expected a non-empty model name, received undefined/,
    );
    const model = openai({ model: 'm', apiKey: 'k' });
    await expect(model.generate({ messages: 'hi' } as never)).rejects.toThrow(
      'openai: request.messages: expected an array, received string "hi"',
    );
    await expect(
      model.generate({ messages: [{ role: 'tool', content: 'x' }] } as never),
    ).rejects.toThrow(
      /messages\[0\].role: expected 'system', 'user' or 'assistant', received string "tool"/,
    );
    await expect(
      model.generate({ messages: [{ role: 'user', content: [null] }] } as never),
    ).rejects.toThrow(
      'messages[0].content[0]: expected a content part with a string type, received null',
    );
    await expect(model.generate({ ...ask, tools: [{ name: 'x' }] } as never)).rejects.toThrow(
      'tools[0]: expected a tool definition { name, description, parameters }, received object',
    );
    const events = await collect(model.stream({ messages: 5 } as never));
    expect(events).toHaveLength(1);
    expect(events[0].type === 'error' && events[0].error).toBeInstanceOf(TypeError);
  });
});

describe('openai: options for today’s models', () => {
  it('sends max_completion_tokens by default and max_tokens only with maxTokensField', async () => {
    const model = await start({ json: completion({ content: 'a' }, 'stop') });
    await model.generate({ ...ask, maxTokens: 50 });
    expect(fake.server.requests[0].body.max_completion_tokens).toBe(50);
    expect(fake.server.requests[0].body).not.toHaveProperty('max_tokens');
    const url = fake.server.url;
    await fake.server.close();
    await fake.serve([{ json: completion({ content: 'a' }, 'stop') }]);
    const legacy = openai({
      model: 'llama',
      baseURL: fake.server.url,
      maxTokensField: 'max_tokens',
    });
    await legacy.generate({ ...ask, maxTokens: 50 });
    expect(fake.server.requests[0].body.max_tokens).toBe(50);
    expect(fake.server.requests[0].body).not.toHaveProperty('max_completion_tokens');
    expect(url).not.toBe(fake.server.url);
  });

  it('sends reasoning_effort from the request, else from the model options, and warns about a token budget', async () => {
    await fake.serve([
      { json: completion({ content: 'a' }, 'stop') },
      { json: completion({ content: 'b' }, 'stop') },
    ]);
    const model = openai({
      model: 'o4-mini',
      apiKey: 'k',
      baseURL: fake.server.url,
      reasoningEffort: 'low',
    });
    await model.generate(ask);
    const result = await model.generate({
      ...ask,
      reasoning: { effort: 'high', budgetTokens: 2000 },
    });
    expect(fake.server.requests[0].body.reasoning_effort).toBe('low');
    expect(fake.server.requests[1].body.reasoning_effort).toBe('high');
    expect(result.warnings).toEqual([
      {
        message:
          'reasoning.budgetTokens not sent: Chat Completions takes reasoning.effort, not a token budget',
      },
    ]);
  });

  it('reads reasoning and cached token counts', async () => {
    const model = await start({
      json: {
        ...completion({ content: 'a' }, 'stop'),
        usage: {
          prompt_tokens: 100,
          completion_tokens: 40,
          total_tokens: 140,
          prompt_tokens_details: { cached_tokens: 64 },
          completion_tokens_details: { reasoning_tokens: 32 },
        },
      },
    });
    expect((await model.generate(ask)).usage).toEqual({
      inputTokens: 100,
      outputTokens: 40,
      totalTokens: 140,
      cachedInputTokens: 64,
      reasoningTokens: 32,
    });
  });

  it('asks for output through a strict json_schema response_format and undoes its nulls', async () => {
    const model = await start({
      json: completion({ content: '{"city":"Oslo","days":null}' }, 'stop'),
    });
    const result = await model.generate({ ...ask, output: { schema: weatherTool.parameters } });
    expect(fake.server.requests[0].body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'output',
        strict: true,
        schema: {
          type: 'object',
          properties: { city: { type: 'string' }, days: { type: ['integer', 'null'] } },
          required: ['city', 'days'],
          additionalProperties: false,
        },
      },
    });
    expect(result.output).toEqual({ city: 'Oslo' });
    expect(result.text).toBe('{"city":"Oslo","days":null}');
    expect(result.warnings?.every((w) => w.message.startsWith('output schema: '))).toBe(true);
  });

  it('leaves output absent when the answer is not JSON', async () => {
    const model = await start({ json: completion({ content: 'Sunny.' }, 'stop') });
    const result = await model.generate({ ...ask, output: { schema: weatherTool.parameters } });
    expect(result).not.toHaveProperty('output');
  });

  it('merges providerOptions.openai into the body last, and ignores other providers’ entries', async () => {
    const model = await start({ json: completion({ content: 'a' }, 'stop') });
    await model.generate({
      ...ask,
      temperature: 0.5,
      providerOptions: {
        openai: JSON.parse('{"seed":1,"temperature":0,"__proto__":{"polluted":true}}'),
        anthropic: { metadata: { user_id: 'u' } },
      },
    });
    const body = fake.server.requests[0].body;
    expect(body).toMatchObject({ seed: 1, temperature: 0 });
    expect(body).not.toHaveProperty('metadata');
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('rejects malformed request options with clear errors before sending', async () => {
    const model = await start();
    await expect(model.generate({ ...ask, maxTokens: 0 })).rejects.toThrow(
      'openai: request.maxTokens: expected a positive integer, received number 0',
    );
    await expect(
      model.generate({ ...ask, reasoning: { effort: 'huge' as 'high' } }),
    ).rejects.toThrow(
      `request.reasoning.effort: expected 'low', 'medium' or 'high', received string "huge"`,
    );
    await expect(
      model.generate({ ...ask, providerOptions: { openai: 'seed' as never } }),
    ).rejects.toThrow(
      'request.providerOptions.openai: expected an object of request body fields, received string "seed"',
    );
    await expect(
      model.generate({ ...ask, output: { schema: weatherTool.parameters, name: 'my answer' } }),
    ).rejects.toThrow('request.output.name: expected a name matching');
    expect(fake.server.requests).toHaveLength(0);
  });
});
