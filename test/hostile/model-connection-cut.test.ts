/**
 * A model server that cuts the connection: mid-stream, while a `generate()` answer is
 * being read, before the stream's first event, or before the headers. Every provider
 * gets the same retryable ModelError from the transport (decision 107): it says the
 * connection was cut and where, and keeps undici's error as its cause; what happens
 * before anything reached the caller is retried. The caller's abort is still an AbortError.
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
import { collect, SSE_HEADERS, useFakeProvider } from '../helpers/fake-provider.ts';

const fake = useFakeProvider();

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };
const fast = { maxRetries: 1, initialRetryDelayMs: 1 };

interface ProviderPath {
  name: string;
  model(baseURL: string): Model;
  /** The response header carrying the provider's request id. */
  requestIdHeader: string;
  /** The URL the provider POSTs a stream to, relative to the server. */
  streamPath: string;
  /** The URL the provider POSTs a `generate()` to. */
  generatePath: string;
  /** Three SSE events: the start of a turn whose text begins `Hel` and `lo`. */
  events: string[];
  /** A whole `generate()` answer. */
  answer: unknown;
}

const paths: ProviderPath[] = [
  {
    name: 'openai chat',
    model: (baseURL) => openai({ model: 'm', baseURL, api: 'chat', ...fast }),
    requestIdHeader: 'x-request-id',
    streamPath: '/chat/completions',
    generatePath: '/chat/completions',
    events: [
      { choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] },
      { choices: [{ index: 0, delta: { content: 'Hel' } }] },
      { choices: [{ index: 0, delta: { content: 'lo' } }] },
    ].map((event) => `data: ${JSON.stringify(event)}\n\n`),
    answer: {
      id: 'c1',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    },
  },
  {
    name: 'openai responses',
    model: (baseURL) => openai({ model: 'm', baseURL, api: 'responses', ...fast }),
    requestIdHeader: 'x-request-id',
    streamPath: '/responses',
    generatePath: '/responses',
    events: [
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'message', id: 'msg_1', role: 'assistant', content: [] },
      },
      { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'Hel' },
      { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'lo' },
    ].map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`),
    answer: {
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      output: [
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Hello', annotations: [] }],
        },
      ],
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    },
  },
  {
    name: 'anthropic',
    model: (baseURL) => anthropic({ model: 'm', apiKey: 'k', baseURL, ...fast }),
    requestIdHeader: 'request-id',
    streamPath: '/v1/messages',
    generatePath: '/v1/messages',
    events: [
      {
        type: 'message_start',
        message: { id: 'msg_1', role: 'assistant', content: [], usage: { input_tokens: 1 } },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo' } },
    ].map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`),
    answer: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  },
  {
    name: 'gemini',
    model: (baseURL) => gemini({ model: 'g', apiKey: 'k', baseURL, ...fast }),
    requestIdHeader: 'x-request-id',
    streamPath: '/v1beta/models/g:streamGenerateContent?alt=sse',
    generatePath: '/v1beta/models/g:generateContent',
    events: [
      { candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'Hel' }] } }] },
      { candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'lo' }] } }] },
    ].map((event) => `data: ${JSON.stringify(event)}\n\n`),
    answer: {
      candidates: [
        {
          index: 0,
          content: { role: 'model', parts: [{ text: 'Hello' }] },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    },
  },
];

/** What `generate()` rejects with (`undefined` if it resolves). */
function generateError(model: Model): Promise<unknown> {
  return model.generate(ask).then(
    () => undefined,
    (error: unknown) => error,
  );
}

const texts = (events: StreamEvent[]) =>
  events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));

/** The message a cut of the `what` from the URL `path` of the server gives. */
function cutMessage(what: 'answer' | 'stream', path: string, retries: string) {
  const url = `${fake.server.url}${path}`.replace(/[.?]/g, '\\$&');
  return new RegExp(
    `^\\w+: the ${what} was cut: the connection to ${url} closed before the whole ${what} arrived \\(terminated: other side closed\\)${retries}$`,
  );
}

/** undici's error for a body whose connection closed, kept as the cause. */
function expectUndiciCause(error: unknown) {
  const cause = (error as ModelError).cause;
  expect(cause).toBeInstanceOf(TypeError);
  expect(cause).toMatchObject({ message: 'terminated' });
}

describe.each(paths)('$name: a connection cut', (path) => {
  it('mid-stream ends the stream with one retryable ModelError, after the events that came', async () => {
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, { ...SSE_HEADERS, [path.requestIdHeader]: 'req_cut' });
          // The last event is cut in the middle of its line.
          const body = path.events.join('');
          res.write(body.slice(0, body.length - 10), () => res.destroy());
        },
      ],
      { repeatLast: true },
    );
    const events = await collect(path.model(fake.server.url).stream(ask));
    expect(texts(events)).toEqual(['Hel']);
    expect(events.filter((event) => event.type === 'error')).toHaveLength(1);
    expect(events.some((event) => event.type === 'stop')).toBe(false);
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    const error = last?.type === 'error' ? last.error : undefined;
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ retryable: true, requestId: 'req_cut' });
    expect(error?.message).toMatch(cutMessage('stream', path.streamPath, ''));
    expectUndiciCause(error);
    // Text had reached the caller: no second request.
    expect(fake.server.count).toBe(1);
  });

  it('before the first event is retried, then a ModelError naming the retries', async () => {
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, SSE_HEADERS);
          res.write(': keep-alive\n\n', () => res.destroy());
        },
      ],
      { repeatLast: true },
    );
    const events = await collect(path.model(fake.server.url).stream(ask));
    expect(events).toHaveLength(1);
    const error = events[0].type === 'error' ? events[0].error : undefined;
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ retryable: true });
    expect(error?.message).toMatch(cutMessage('stream', path.streamPath, ' after 1 retry'));
    expectUndiciCause(error);
    expect(fake.server.count).toBe(2);
  });

  it('while generate() reads the answer is retried, and the next answer is the result', async () => {
    const whole = JSON.stringify(path.answer);
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(whole.slice(0, 20), () => res.destroy());
        },
        (res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(whole);
        },
      ],
      { repeatLast: true },
    );
    const result = await path.model(fake.server.url).generate(ask);
    expect(result.text).toBe('Hello');
    expect(fake.server.count).toBe(2);
  });

  it('while generate() reads the answer, every time, rejects with a retryable ModelError', async () => {
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, {
            'content-type': 'application/json',
            [path.requestIdHeader]: 'req_cut',
          });
          res.write(JSON.stringify(path.answer).slice(0, 20), () => res.destroy());
        },
      ],
      { repeatLast: true },
    );
    const error = await generateError(path.model(fake.server.url));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ retryable: true, requestId: 'req_cut' });
    expect((error as Error).message).toMatch(
      cutMessage('answer', path.generatePath, ' after 1 retry'),
    );
    expectUndiciCause(error);
    expect(fake.server.count).toBe(2);
  });

  it('before the headers is retried, then a retryable ModelError that says the connection was cut', async () => {
    await fake.serve([(res) => res.socket?.destroy()], { repeatLast: true });
    const error = await generateError(path.model(fake.server.url));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ retryable: true });
    const url = `${fake.server.url}${path.generatePath}`;
    expect((error as Error).message).toBe(
      `${(error as ModelError).provider}: the connection to ${url} was cut before the answer's headers (fetch failed: other side closed) after 1 retry`,
    );
    expect((error as ModelError).cause).toBeInstanceOf(TypeError);
    expect(fake.server.count).toBe(2);
  });

  it("in an error answer's body still reports the status", async () => {
    await fake.serve(
      [
        (res) => {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.write('{"error":{"message":"bad req', () => res.destroy());
        },
      ],
      { repeatLast: true },
    );
    const error = await generateError(path.model(fake.server.url));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect(fake.server.count).toBe(1);
  });

  it("the caller's abort mid-stream is still an AbortError, and closes the connection", async () => {
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, SSE_HEADERS);
          res.write(path.events.join('').slice(0, -10));
        },
      ],
      { repeatLast: true },
    );
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const event of path
      .model(fake.server.url)
      .stream({ ...ask, signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error.name).toBe('AbortError');
    await fake.server.closed(0);
  });
});
