import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type GenerateRequest,
  ModelError,
  openai,
  type StreamEvent,
} from '../../../../src/ai/model/index.ts';
import { collect, type Reply, useFakeProvider } from '../../../helpers/fake-provider.ts';
import {
  functionCall,
  message,
  reasoning,
  refusal,
  reply,
  response,
  streamEvents,
  usage,
} from './responses-wire.ts';

const fake = useFakeProvider();
afterEach(() => {
  vi.restoreAllMocks();
});

const ask: GenerateRequest = { messages: [{ role: 'user', content: 'Hi' }] };

async function start(replies: Reply[], options: Record<string, unknown> = {}) {
  await fake.serve(replies);
  return openai({
    model: 'gpt-5-mini',
    apiKey: 'k',
    baseURL: fake.server.url,
    api: 'responses',
    ...options,
  });
}

const lastOf = (events: StreamEvent[]) => events.at(-1)!;

for (const stream of [false, true]) {
  const run = async (model: ReturnType<typeof openai>, request: GenerateRequest) => {
    if (!stream) return model.generate(request);
    const events = await collect(model.stream(request));
    const last = lastOf(events);
    if (last.type === 'error') throw last.error;
    if (last.type !== 'stop') throw new Error(`expected stop, received ${last.type}`);
    return last.result;
  };

  describe(`openai responses (${stream ? 'streamed' : 'whole'})`, () => {
    it('posts to /responses with store: false, encrypted reasoning, instructions and input items', async () => {
      const model = await start([
        reply([reasoning('Thinking.', 'enc-1'), message('Hello.')], stream),
      ]);
      const result = await run(model, { ...ask, system: 'Be brief.' });
      const { path, body } = fake.server.requests[0];
      expect(path).toBe('/responses');
      expect(body).toMatchObject({
        model: 'gpt-5-mini',
        instructions: 'Be brief.',
        input: [{ role: 'user', content: 'Hi' }],
        store: false,
        include: ['reasoning.encrypted_content'],
      });
      expect(body.stream).toBe(stream ? true : undefined);
      expect(result.text).toBe('Hello.');
      expect(result.stopReason).toBe('end');
      expect(result.message.content).toEqual([
        {
          type: 'reasoning',
          text: 'Thinking.',
          provider: 'openai',
          providerMetadata: { openai: { item: reasoning('Thinking.', 'enc-1') } },
        },
        { type: 'text', text: 'Hello.', providerMetadata: { openai: { item: message('Hello.') } } },
      ]);
      expect(result.usage).toEqual({
        inputTokens: 20,
        outputTokens: 12,
        totalTokens: 32,
        cachedInputTokens: 8,
        reasoningTokens: 5,
      });
    });

    it('streams reasoning summaries and text as deltas', async () => {
      if (!stream) return;
      const model = await start([reply([reasoning('Plan it.', 'enc'), message('Done.')], true)]);
      const events = await collect(model.stream(ask));
      const reasoningText = events.flatMap((e) => (e.type === 'reasoning-delta' ? [e.text] : []));
      const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : []));
      expect(reasoningText).toEqual(['Plan', ' it.']);
      expect(text).toEqual(['Do', 'ne.']);
      expect(events.map((e) => e.type).slice(-2)).toEqual(['usage', 'stop']);
    });

    it('joins several reasoning summaries with a blank line, whole or streamed alike', async () => {
      const thought = {
        ...reasoning('', 'enc'),
        summary: [
          { type: 'summary_text', text: 'First.' },
          { type: 'summary_text', text: 'Second.' },
        ],
      };
      const model = await start([reply([thought, message('ok')], stream)]);
      const result = await run(model, ask);
      expect(result.message.content[0]).toMatchObject({
        type: 'reasoning',
        text: 'First.\n\nSecond.',
      });
      expect(result.message.content[0]).toMatchObject({
        providerMetadata: { openai: { item: thought } },
      });
    });

    it('sends function tools (strict only when asked), tool choice, effort and summary', async () => {
      const model = await start(
        [reply([functionCall('call_1', 'weather', { city: 'Oslo', days: null })], stream)],
        {
          strict: ['weather'],
          reasoningSummary: 'auto',
        },
      );
      const parameters = {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer' } },
        required: ['city'],
      };
      const result = await run(model, {
        ...ask,
        tools: [
          { name: 'weather', description: 'Weather', parameters },
          { name: 'time', description: 'Time', parameters: { type: 'object', properties: {} } },
        ],
        toolChoice: { name: 'weather' },
        maxTokens: 300,
        reasoning: { effort: 'low' },
      });
      const { body } = fake.server.requests[0];
      expect(body.tools[0]).toMatchObject({ type: 'function', name: 'weather', strict: true });
      expect(body.tools[0].parameters.required).toEqual(['city', 'days']);
      expect(body.tools[1]).toEqual({
        type: 'function',
        name: 'time',
        description: 'Time',
        parameters: { type: 'object', properties: {} },
        strict: false,
      });
      expect(body.tool_choice).toEqual({ type: 'function', name: 'weather' });
      expect(body.max_output_tokens).toBe(300);
      expect(body.reasoning).toEqual({ effort: 'low', summary: 'auto' });
      // The strict-mode null of the optional argument is removed.
      expect(result.toolCalls).toEqual([{ id: 'call_1', name: 'weather', args: { city: 'Oslo' } }]);
      expect(result.stopReason).toBe('tool_calls');
    });

    it('asks for structured output through text.format and parses it into result.output', async () => {
      const model = await start([reply([message('{"city":"Oslo","population":null}')], stream)]);
      const schema = {
        type: 'object',
        properties: { city: { type: 'string' }, population: { type: 'integer' } },
        required: ['city'],
      };
      const result = await run(model, { ...ask, output: { schema, name: 'capital' } });
      expect(fake.server.requests[0].body.text.format).toMatchObject({
        type: 'json_schema',
        name: 'capital',
        strict: true,
        schema: { required: ['city', 'population'], additionalProperties: false },
      });
      expect(result.output).toEqual({ city: 'Oslo' });
    });

    it('reports a refusal as its text with stop reason content_filter', async () => {
      const model = await start([reply([refusal("I can't help with that.")], stream)]);
      const result = await run(model, ask);
      expect(result.text).toBe("I can't help with that.");
      expect(result.stopReason).toBe('content_filter');
    });

    it('maps an incomplete response cut at max_output_tokens to max_tokens', async () => {
      const output = [message('Once upon a')];
      const final = response(output, {
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
      });
      const model = await start([reply(output, stream, final)]);
      const result = await run(model, { ...ask, maxTokens: 3 });
      expect(result).toMatchObject({
        text: 'Once upon a',
        stopReason: 'max_tokens',
        rawStopReason: 'max_output_tokens',
      });
    });

    it('fails with a ModelError naming the error of a failed response', async () => {
      const failed = response([], {
        status: 'failed',
        error: { code: 'server_error', message: 'The server had an error.' },
      });
      const streamed: Reply = {
        sse: [
          `event: response.failed\ndata: ${JSON.stringify({ type: 'response.failed', sequence_number: 0, response: failed })}`,
        ],
      };
      const model = await start([
        stream ? streamed : { json: failed, headers: { 'x-request-id': 'req_9' } },
      ]);
      const error = await run(model, ask).catch((e) => e);
      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({
        provider: 'openai',
        code: 'server_error',
        providerMessage: 'The server had an error.',
        retryable: true,
      });
      expect(error.message).toMatch(
        /^openai: the response failed: The server had an error\. \(server_error\)/,
      );
    });

    it('sends image inputs and a tool result with an image as input parts', async () => {
      const model = await start([reply([message('A cat.')], stream)]);
      const image = { type: 'image' as const, mediaType: 'image/png', data: 'iVBORw0K' };
      await run(model, {
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'What is it?' }, image] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'snap', args: {} }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                toolCallId: 'c1',
                content: [{ type: 'text', text: 'photo' }, image],
              },
            ],
          },
        ],
      });
      expect(fake.server.requests[0].body.input).toEqual([
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is it?' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0K', detail: 'auto' },
          ],
        },
        { type: 'function_call', call_id: 'c1', name: 'snap', arguments: '{}' },
        {
          type: 'function_call_output',
          call_id: 'c1',
          output: [
            { type: 'input_text', text: 'photo' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0K', detail: 'auto' },
          ],
        },
      ]);
    });
  });
}

describe('openai responses: streams that go wrong', () => {
  it('an error event without a code has no code, not the event type', async () => {
    const model = await start([
      {
        sse: [
          `data: ${JSON.stringify({ type: 'error', code: null, message: 'Oops.', param: null })}`,
        ],
      },
    ]);
    const [event] = await collect(model.stream(ask));
    expect(event.type === 'error' && event.error).toMatchObject({
      providerMessage: 'Oops.',
      code: undefined,
    });
  });

  it('ends a stream with one ModelError on an error event', async () => {
    const model = await start([
      {
        sse: [
          `event: error\ndata: ${JSON.stringify({ type: 'error', code: 'rate_limit_exceeded', message: 'Slow down.', param: null, sequence_number: 1 })}`,
        ],
        headers: { 'x-request-id': 'req_7' },
      },
    ]);
    const events = await collect(model.stream(ask));
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event.type === 'error' && event.error).toMatchObject({
      name: 'ModelError',
      code: 'rate_limit_exceeded',
      providerMessage: 'Slow down.',
      requestId: 'req_7',
    });
  });

  it('ends a stream cut in the middle of an event with a ModelError, no stop', async () => {
    const events = streamEvents([message('Hello there.')]);
    const cut: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`${events.slice(0, 3).join('\n\n')}\n\n${events[3].slice(0, 40)}`, () =>
        res.destroy(),
      );
    });
    await new Promise<void>((resolve) => cut.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = cut.address() as AddressInfo;
      const model = openai({ model: 'm', baseURL: `http://127.0.0.1:${port}`, api: 'responses' });
      const seen = await collect(model.stream(ask));
      // The events before the cut arrived: the failure is the cut, not the connection.
      expect(seen.filter((e) => e.type === 'text-delta')).toEqual([
        { type: 'text-delta', text: 'Hello ' },
      ]);
      expect(seen.filter((e) => e.type === 'stop')).toEqual([]);
      const last = lastOf(seen);
      expect(last.type).toBe('error');
      expect(last.type === 'error' && last.error).toBeInstanceOf(ModelError);
      expect(seen.filter((e) => e.type === 'error')).toHaveLength(1);
      expect(last.type === 'error' && last.error.message).toMatch(
        /^openai: the stream (was cut|ended before)/,
      );
    } finally {
      cut.closeAllConnections();
      await new Promise<void>((resolve) => cut.close(() => resolve()));
    }
  });

  it('aborting mid-stream ends it with an AbortError and closes the connection', async () => {
    const events = streamEvents([message('Hello there.')]);
    const model = await start([{ sse: events.slice(0, 3), hang: true }]);
    const controller = new AbortController();
    const seen: StreamEvent[] = [];
    for await (const event of model.stream({ ...ask, signal: controller.signal })) {
      seen.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(seen.map((e) => e.type)).toEqual(['text-delta', 'error']);
    expect(seen[1].type === 'error' && seen[1].error.name).toBe('AbortError');
    await fake.server.closed(0);
  });

  it('fails a stream that ends without response.completed, retryable', async () => {
    const model = await start([{ sse: streamEvents([message('Half')]).slice(0, -1) }]);
    const last = lastOf(await collect(model.stream(ask)));
    expect(last.type === 'error' && last.error).toMatchObject({
      name: 'ModelError',
      retryable: true,
      message: 'openai: the stream ended before the model finished its turn',
    });
  });

  it('retries a 503 and reports a 400 with the provider message, as Chat Completions does', async () => {
    const model = await start(
      [
        { status: 503, json: { error: { message: 'busy' } } },
        { json: response([message('ok')]) },
        {
          status: 400,
          headers: { 'x-request-id': 'req_1' },
          json: { error: { message: 'Bad schema.', type: 'invalid_request_error', code: null } },
        },
      ],
      { initialRetryDelayMs: 1 },
    );
    expect((await model.generate(ask)).text).toBe('ok');
    const error = await model.generate(ask).catch((e) => e);
    expect(error).toMatchObject({
      name: 'ModelError',
      status: 400,
      providerMessage: 'Bad schema.',
      code: 'invalid_request_error',
      requestId: 'req_1',
    });
  });
});

describe('openai(): which API', () => {
  it('speaks Responses to api.openai.com and Chat Completions to other base URLs', async () => {
    const urls: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
      urls.push(String(url));
      return new Response(JSON.stringify(response([message('ok')])), { status: 200 });
    });
    await openai({ model: 'gpt-5', apiKey: 'k' }).generate(ask);
    expect(urls).toEqual(['https://api.openai.com/v1/responses']);
    await fake.serve([
      {
        json: {
          choices: [
            { index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' },
          ],
        },
      },
      { json: response([message('ok')]) },
    ]);
    vi.restoreAllMocks();
    await openai({ model: 'llama3.2', baseURL: fake.server.url }).generate(ask);
    await openai({ model: 'llama3.2', baseURL: fake.server.url, api: 'responses' }).generate(ask);
    expect(fake.server.requests.map((r) => r.path)).toEqual(['/chat/completions', '/responses']);
    expect(() => openai({ model: 'm', store: 'yes' as never })).toThrow(
      'openai(options).store: expected a boolean, received string "yes"',
    );
    expect(() => openai({ model: 'm', reasoningSummary: 'long' as never })).toThrow(
      "openai(options).reasoningSummary: expected 'auto', 'concise' or 'detailed', received string \"long\"",
    );
    expect(() => openai({ model: 'm', api: 'completions' as never })).toThrow(
      "openai(options).api: expected 'responses' or 'chat', received string \"completions\"",
    );
  });

  it('sends include only for reasoning models, store and previous_response_id when asked', async () => {
    await fake.serve([{ json: response([message('a')]) }, { json: response([message('b')]) }]);
    const gpt4 = openai({
      model: 'gpt-4.1',
      apiKey: 'k',
      baseURL: fake.server.url,
      api: 'responses',
    });
    await gpt4.generate(ask);
    const stored = openai({
      model: 'o4-mini',
      apiKey: 'k',
      baseURL: fake.server.url,
      api: 'responses',
      store: true,
    });
    const chained = await stored.generate({
      ...ask,
      providerOptions: { openai: { previous_response_id: 'resp_0' } },
    });
    // The response's id, to chain the next request with.
    expect(chained.providerMetadata).toEqual({ openai: { responseId: 'resp_1' } });
    expect(fake.server.requests[0].body).not.toHaveProperty('include');
    expect(fake.server.requests[0].body.store).toBe(false);
    expect(fake.server.requests[1].body).toMatchObject({
      store: true,
      previous_response_id: 'resp_0',
    });
    expect(fake.server.requests[1].body).not.toHaveProperty('include');
  });

  it("includes the results of OpenAI's tools, and a caller's include adds to fino's", async () => {
    const model = await start([{ json: response([message('a')]) }]);
    await model.generate({
      ...ask,
      providerTools: [
        openai.tools.codeInterpreter(),
        openai.tools.fileSearch({ vectorStoreIds: ['vs_1'] }),
      ],
      providerOptions: { openai: { include: ['message.output_text.logprobs'] } },
    });
    expect(fake.server.requests[0].body.include).toEqual([
      'reasoning.encrypted_content',
      'code_interpreter_call.outputs',
      'file_search_call.results',
      'message.output_text.logprobs',
    ]);
  });

  it('reports usage, cache writes included, and keeps a reasoning item without summary', async () => {
    const model = await start([
      {
        json: {
          ...response([reasoning('', 'enc-only'), message('x')]),
          usage: { ...usage, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 4 } },
        },
      },
    ]);
    const result = await model.generate(ask);
    expect(result.usage).toMatchObject({ cachedInputTokens: 0, cacheWriteTokens: 4 });
    expect(result.message.content[0]).toMatchObject({ type: 'reasoning', text: '' });
  });
});
