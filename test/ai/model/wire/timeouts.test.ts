/**
 * Every model request is bounded in time: a fake provider that never answers, that
 * answers headers and then only keep-alives, or that sends its tokens too slowly, ends
 * in a clear ModelError (retried while nothing was delivered) — never a run held forever.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  anthropic,
  type GenerateRequest,
  gemini,
  type Model,
  ModelError,
  openai,
  type StreamEvent,
} from '../../../../src/ai/model/index.ts';
import {
  collect,
  every,
  type FakeProvider,
  SSE_HEADERS,
  useFakeProvider,
} from '../../../helpers/fake-provider.ts';

const fake = useFakeProvider();

const ask: GenerateRequest = { messages: [{ role: 'user', content: 'hi' }] };
const fast = { maxRetries: 1, initialRetryDelayMs: 1 };

const chunk = (content: string, finish?: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: finish ?? null }] })}\n\n`;

/** Every connection that reached the server was closed by the client (none left open). */
async function allClosed(server: FakeProvider): Promise<void> {
  await Promise.all(Array.from({ length: server.count }, (_, n) => server.closed(n)));
}

function errorOf(events: StreamEvent[]): unknown {
  const last = events.at(-1);
  expect(last?.type).toBe('error');
  return last?.type === 'error' ? last.error : undefined;
}

const providers: [string, (url: string, timeouts: object) => Model][] = [
  ['openai', (url, timeouts) => openai({ model: 'm', baseURL: url, timeouts, ...fast })],
  [
    'anthropic',
    (url, timeouts) => anthropic({ model: 'm', apiKey: 'k', baseURL: url, timeouts, ...fast }),
  ],
  [
    'gemini',
    (url, timeouts) => gemini({ model: 'm', apiKey: 'k', baseURL: url, timeouts, ...fast }),
  ],
];

describe('a provider that never answers', () => {
  it.each(providers)('%s: generate() fails after responseMs, retried once', async (name, make) => {
    await fake.serve([() => undefined], { repeatLast: true });
    const model = make(fake.server.url, { responseMs: 100 });
    const error = await model.generate(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ provider: name, code: 'timeout', retryable: true });
    expect((error as Error).message).toMatch(
      new RegExp(
        `^${name}: no complete answer from http://127\\.0\\.0\\.1:\\d+/\\S+ within 100 ms after 1 retry; the limit is timeouts\\.responseMs: raise it with ${name}\\(\\{ timeouts: \\{ responseMs \\} \\}\\)$`,
      ),
    );
    // The retry is in the message ("after 1 retry"), not in the server's count: on a loaded
    // machine an attempt may time out before its request reaches the server.
    await allClosed(fake.server);
  });

  it.each(providers)(
    '%s: stream() ends with one error event after firstByteMs',
    async (name, make) => {
      await fake.serve([() => undefined], { repeatLast: true });
      const model = make(fake.server.url, { firstByteMs: 100 });
      const events = await collect(model.stream(ask));
      expect(events).toHaveLength(1);
      expect(errorOf(events)).toMatchObject({
        name: 'ModelError',
        provider: name,
        code: 'timeout',
      });
      expect(String((errorOf(events) as Error).message)).toContain('within 100 ms after 1 retry');
      await allClosed(fake.server);
    },
  );

  it('the caller’s abort wins over the timeout and is an AbortError', async () => {
    await fake.serve([() => undefined], { repeatLast: true });
    const model = openai({
      model: 'm',
      baseURL: fake.server.url,
      timeouts: { responseMs: 60_000 },
    });
    const controller = new AbortController();
    const pending = model.generate({ ...ask, signal: controller.signal });
    while (fake.server.count === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('a stream that only sends keep-alives', () => {
  it('openai: comments do not count as progress; the stall is retried, then reported', async () => {
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, SSE_HEADERS);
          every(res, 20, ': keep-alive\n\n');
        },
      ],
      { repeatLast: true },
    );
    const model = openai({
      model: 'm',
      baseURL: fake.server.url,
      timeouts: { idleMs: 200 },
      ...fast,
    });
    const events = await collect(model.stream(ask));
    expect(events).toHaveLength(1);
    const error = errorOf(events) as ModelError;
    expect(error).toMatchObject({ code: 'timeout', retryable: true });
    expect(error.message).toContain(
      'sent no content for 200 ms (keep-alive comments, pings and events that add nothing to the answer do not count) after 1 retry; the limit is timeouts.idleMs',
    );
    expect(fake.server.count).toBe(2);
    await allClosed(fake.server);
  });

  it('anthropic: ping events do not count as progress', async () => {
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, SSE_HEADERS);
          every(res, 20, 'event: ping\ndata: {"type": "ping"}\n\n');
        },
      ],
      { repeatLast: true },
    );
    const model = anthropic({
      model: 'm',
      apiKey: 'k',
      baseURL: fake.server.url,
      timeouts: { idleMs: 200 },
      maxRetries: 0,
    });
    const error = errorOf(await collect(model.stream(ask)));
    expect(error).toMatchObject({ provider: 'anthropic', code: 'timeout' });
    expect(fake.server.count).toBe(1);
  });
});

describe('slow tokens', () => {
  it('a stall after the first token is reported, not retried (text was delivered)', async () => {
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, SSE_HEADERS);
          res.write(chunk('Hel'));
          every(res, 20, ': still here\n\n');
        },
      ],
      { repeatLast: true },
    );
    const model = openai({
      model: 'm',
      baseURL: fake.server.url,
      timeouts: { idleMs: 200 },
      ...fast,
    });
    const events = await collect(model.stream(ask));
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'error']);
    expect(errorOf(events)).toMatchObject({ code: 'timeout', retryable: true });
    expect(String((errorOf(events) as Error).message)).not.toContain('retry');
    expect(fake.server.count).toBe(1);
  });

  it('tokens that keep coming within idleMs complete, however long the stream', async () => {
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, SSE_HEADERS);
          let sent = 0;
          const timer = setInterval(() => {
            sent++;
            res.write(chunk('x', sent === 20 ? 'stop' : undefined));
            if (sent === 20) {
              clearInterval(timer);
              res.end('data: [DONE]\n\n');
            }
          }, 10);
        },
      ],
      { repeatLast: true },
    );
    const model = openai({ model: 'm', baseURL: fake.server.url, timeouts: { idleMs: 5_000 } });
    const events = await collect(model.stream(ask));
    expect(events.at(-1)).toMatchObject({ type: 'stop', result: { text: 'x'.repeat(20) } });
  });

  it('time the caller spends between two reads does not count as the server’s silence', async () => {
    let secondWritten!: () => void;
    const written = new Promise<void>((resolve) => {
      secondWritten = resolve;
    });
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, SSE_HEADERS);
          res.write(chunk('a'));
          // The second token comes after more than idleMs…
          setTimeout(() => {
            res.end(`${chunk('b', 'stop')}data: [DONE]\n\n`);
            secondWritten();
          }, 1_000);
        },
      ],
      { repeatLast: true },
    );
    const model = openai({ model: 'm', baseURL: fake.server.url, timeouts: { idleMs: 500 } });
    const types: string[] = [];
    for await (const event of model.stream(ask)) {
      types.push(event.type);
      // …but the caller was busy until then, so the server was never waited for that long.
      if (types.length === 1) await written;
    }
    expect(types).toEqual(['text-delta', 'text-delta', 'usage', 'stop']);
  });
});

describe('the timeouts option', () => {
  it('refuses an unknown key, naming the closest one', () => {
    expect(() => openai({ model: 'm', timeouts: { idle: 5 } as never })).toThrow(
      'openai(options).timeouts: unknown option "idle"; did you mean "idleMs"? expected one of firstByteMs, idleMs, responseMs',
    );
    expect(() => openai({ model: 'm', timeouts: { idle: 5 } as never })).toThrow(
      expect.objectContaining({ name: 'ModelError', code: 'INVALID_ARGUMENT' }),
    );
  });

  it('refuses a duration a timer cannot wait, and accepts Infinity to turn one off', () => {
    expect(() => gemini({ model: 'm', timeouts: { idleMs: -1 } })).toThrow(
      'gemini(options).timeouts.idleMs: expected a number of milliseconds > 0',
    );
    expect(() => anthropic({ model: 'm', timeouts: 5 as never })).toThrow(
      'anthropic(options).timeouts: expected an object { firstByteMs?, idleMs?, responseMs? }, received number 5',
    );
    expect(() => openai({ model: 'm', timeouts: { responseMs: Infinity } })).not.toThrow();
  });
});

describe('one signal for many requests', () => {
  it('leaves no listener behind on the caller’s signal, whatever way a request ends', async () => {
    const ok = JSON.stringify({
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    });
    await fake.serve(
      [
        (res, req) => {
          if (req.headers['x-mode'] === 'stream') {
            res.writeHead(200, SSE_HEADERS);
            res.end(`${chunk('a')}${chunk('b', 'stop')}data: [DONE]\n\n`);
          } else {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(ok);
          }
        },
      ],
      { repeatLast: true },
    );
    const signal = new AbortController().signal;
    const model = openai({ model: 'm', baseURL: fake.server.url });
    const streaming = openai({
      model: 'm',
      baseURL: fake.server.url,
      headers: { 'x-mode': 'stream' },
    });
    for (let i = 0; i < 5; i++) {
      await model.generate({ ...ask, signal });
      await collect(streaming.stream({ ...ask, signal }));
      for await (const _ of streaming.stream({ ...ask, signal })) break;
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
