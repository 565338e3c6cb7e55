/**
 * `fallback()`: a model that falls over to the next one on the provider's faults only,
 * tested against two fake provider servers (OpenAI Responses failing, Anthropic
 * answering), and with scripted models for the edges.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anthropic,
  fallback,
  type GenerateRequest,
  type Model,
  ModelError,
  openai,
  type StreamEvent,
  scriptedModel,
} from '../../../src/ai/model/index.ts';
import {
  collect,
  type FakeProvider,
  fakeProvider,
  type Handler,
  type Reply,
} from '../../helpers/fake-provider.ts';
import { anthropicFixture } from '../agent/providers/anthropic.ts';

const servers: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(replies: (Reply | Handler)[]): Promise<FakeProvider> {
  const server = await fakeProvider(replies);
  servers.push(server);
  return server;
}

const ask: GenerateRequest = { messages: [{ role: 'user', content: 'Hi' }] };
const NO_WAIT = { 'retry-after-ms': '0' };
const failure = (status: number): Reply => ({
  status,
  headers: NO_WAIT,
  json: { error: { message: `failure ${status}`, type: 'server_error' } },
});

/** gpt-4.1 on a fake OpenAI server, one retry, then Claude on a fake Anthropic server. */
async function pair(openaiReplies: Reply[], anthropicReplies: Reply[]) {
  const primary = await serve(openaiReplies);
  const backup = await serve(anthropicReplies);
  const model = fallback([
    openai({ model: 'gpt-4.1', apiKey: 'sk-test', baseURL: primary.url, maxRetries: 1 }),
    anthropic({ model: 'claude-sonnet-4-5', apiKey: 'sk-ant-test', baseURL: backup.url }),
  ]);
  return { model, primary, backup };
}

describe('fallback() over two providers', () => {
  for (const stream of [false, true]) {
    it(`gpt-4.1 falls back to a second provider on 503 (${stream ? 'streamed' : 'whole'})`, async () => {
      const { model, primary, backup } = await pair(
        [failure(503), failure(503)],
        [anthropicFixture.text('Hello from Claude.', stream)],
      );
      const result = stream
        ? ((await collect(model.stream(ask))).at(-1) as Extract<StreamEvent, { type: 'stop' }>)
            .result
        : await model.generate(ask);
      expect(result.text).toBe('Hello from Claude.');
      expect(result.model).toBe('anthropic:claude-sonnet-4-5');
      // The retry budget was spent on gpt-4.1 first: two requests, then one to Claude.
      expect(primary.count).toBe(2);
      expect(backup.count).toBe(1);
      expect(result.attempts?.map((a) => a.model)).toEqual([
        'openai:gpt-4.1',
        'anthropic:claude-sonnet-4-5',
      ]);
      expect(result.attempts?.[0].error).toMatchObject({ name: 'ModelError', status: 503 });
      expect(result.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    });
  }

  it.each([500, 502, 503, 529, 429, 408])('falls over on %i', async (status) => {
    const { model, backup } = await pair(
      [failure(status), failure(status)],
      [anthropicFixture.text('ok', false)],
    );
    expect((await model.generate(ask)).text).toBe('ok');
    expect(backup.count).toBe(1);
  });

  it.each([400, 401, 403, 404, 413, 422])(
    'never falls over on a %i the request caused: the error is thrown, the second provider never asked',
    async (status) => {
      const { model, primary, backup } = await pair([failure(status)], []);
      const error = await model.generate(ask).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({ status, attempts: [{ model: 'openai:gpt-4.1' }] });
      expect(primary.count).toBe(1);
      expect(backup.count).toBe(0);
    },
  );

  it('falls over when the first provider cannot be reached (connection refused)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const backup = await serve([anthropicFixture.text('reached', false)]);
    const model = fallback([
      openai({ model: 'gpt-4.1', apiKey: 'k', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 }),
      anthropic({ model: 'claude-sonnet-4-5', apiKey: 'k', baseURL: backup.url }),
    ]);
    const result = await model.generate(ask);
    expect(result.text).toBe('reached');
    expect(result.attempts?.[0].error).toMatchObject({
      message: expect.stringContaining('could not reach'),
    });
  });

  it('falls over when the first provider times out', async () => {
    // Never answers: not even the headers arrive.
    const primary = await serve([() => {}]);
    const backup = await serve([anthropicFixture.text('in time', false)]);
    const model = fallback([
      openai({
        model: 'gpt-4.1',
        apiKey: 'k',
        baseURL: primary.url,
        maxRetries: 0,
        timeouts: { responseMs: 1 },
      }),
      anthropic({ model: 'claude-sonnet-4-5', apiKey: 'k', baseURL: backup.url }),
    ]);
    const result = await model.generate(ask);
    expect(result.text).toBe('in time');
    expect(result.attempts?.[0].error).toMatchObject({ code: 'timeout' });
  });

  it('when every model fails: the last error, listing every attempt', async () => {
    const { model } = await pair(
      [failure(503), failure(503)],
      [failure(529), failure(529), failure(529)],
    );
    const error = (await model.generate(ask).catch((e: unknown) => e)) as ModelError;
    expect(error).toBeInstanceOf(ModelError);
    expect(error.status).toBe(529);
    expect(error.provider).toBe('anthropic');
    expect(error.attempts?.map((a) => [a.model, (a.error as ModelError).status])).toEqual([
      ['openai:gpt-4.1', 503],
      ['anthropic:claude-sonnet-4-5', 529],
    ]);
    expect(error.message).toContain('fallback tried 2 models: openai:gpt-4.1: openai: 503');
  });
});

const fault = () => new ModelError('p: 503', { provider: 'p', status: 503, retryable: true });

/** A model whose stream yields `events`, then throws `error` when given. */
function streaming(id: string, events: StreamEvent[], error?: Error): Model {
  return {
    id,
    generate: () => Promise.reject(new Error('not used')),
    async *stream() {
      yield* events;
      if (error) throw error;
    },
  };
}

describe('fallback() streams', () => {
  it('falls over before the first content chunk, keeping the failed attempt’s usage in the sum', async () => {
    const usage = { inputTokens: 7, outputTokens: 0, totalTokens: 7 };
    const first = streaming('a:one', [{ type: 'usage', usage }], fault());
    const second = scriptedModel([{ text: 'two', usage: { inputTokens: 3, outputTokens: 2 } }], {
      id: 'b:two',
    });
    const events = await collect(fallback([first, second]).stream(ask));
    // The failed attempt's usage event is held back; the answer's own comes through.
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'usage', 'stop']);
    const stop = events.at(-1) as Extract<StreamEvent, { type: 'stop' }>;
    expect(stop.result.attempts?.map((a) => [a.model, a.usage?.totalTokens])).toEqual([
      ['a:one', 7],
      ['b:two', 5],
    ]);
    expect(stop.result.usage).toMatchObject({ inputTokens: 10, outputTokens: 2, totalTokens: 12 });
  });

  it('does not fall over once content reached the caller: the stream ends with the error', async () => {
    const first = streaming('a:one', [{ type: 'text-delta', text: 'Hel' }], fault());
    const second = scriptedModel(['never'], { id: 'b:two' });
    const events = await collect(fallback([first, second]).stream(ask));
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'error']);
    const { error } = events[1] as Extract<StreamEvent, { type: 'error' }>;
    expect(error).toMatchObject({ status: 503, attempts: [{ model: 'a:one' }] });
    expect(second.requests).toHaveLength(0);
  });
});

describe('fallback() options and edges', () => {
  it('refuses an empty list, a non-model and a bad option with INVALID_ARGUMENT', () => {
    expect(() => fallback([])).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('non-empty array'),
      }),
    );
    expect(() => fallback([scriptedModel([]), {} as Model])).toThrow(
      /fallback\(models\)\[1\]: expected a Model/,
    );
    expect(() => fallback([scriptedModel([])], { when: 1 as never })).toThrow(
      /when: expected a function/,
    );
    expect(() => fallback([scriptedModel([])], { wen: 1 } as never)).toThrow(
      /unknown option "wen"; did you mean "when"/,
    );
  });

  it('`when` decides: here a 400 falls over too, and the failing model is passed', async () => {
    const bad = new ModelError('p: 400', { provider: 'p', status: 400 });
    const seen: string[] = [];
    const model = fallback(
      [scriptedModel([bad], { id: 'a:one' }), scriptedModel(['fine'], { id: 'b:two' })],
      {
        when: (error, failed) => {
          seen.push(failed.id);
          return (error as ModelError).status === 400;
        },
      },
    );
    expect((await model.generate(ask)).text).toBe('fine');
    expect(seen).toEqual(['a:one']);
  });

  it('never falls over after the caller aborted', async () => {
    const controller = new AbortController();
    const first: Model = {
      id: 'a:one',
      generate: () => {
        controller.abort();
        return Promise.reject(fault());
      },
      stream: () => (async function* () {})(),
    };
    const second = scriptedModel(['never'], { id: 'b:two' });
    const error = await fallback([first, second])
      .generate({ ...ask, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503 });
    expect(second.requests).toHaveLength(0);
  });

  it('takes the first model’s id and the smallest limits, and flattens a nested fallback', async () => {
    const a = scriptedModel([fault()], {
      id: 'a:one',
      limits: { contextWindow: 9000, maxOutput: 100 },
    });
    const b = scriptedModel([fault()], {
      id: 'b:two',
      limits: { contextWindow: 5000, maxOutput: 900 },
    });
    const c = scriptedModel(['three'], {
      id: 'c:three',
      limits: { contextWindow: 7000, maxOutput: 50 },
    });
    const model = fallback([a, fallback([b, c])]);
    expect(model.id).toBe('a:one');
    expect(model.limits).toEqual({ contextWindow: 5000, maxOutput: 50 });
    const result = await model.generate(ask);
    expect(result.model).toBe('c:three');
    expect(result.attempts?.map((x) => x.model)).toEqual(['a:one', 'b:two', 'c:three']);
  });
});
