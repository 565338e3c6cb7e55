import { describe, expect, it } from 'vitest';
import {
  anthropic,
  countTokens,
  estimateTokens,
  type GenerateRequest,
  gemini,
  type Model,
  ModelError,
  openai,
  scriptedModel,
} from '../../../../src/ai/model/index.ts';
import { useFakeProvider } from '../../../helpers/fake-provider.ts';

const fake = useFakeProvider();

const tool = {
  name: 'weather',
  description: 'The forecast for a city.',
  parameters: { type: 'object' as const, properties: { city: { type: 'string' } } },
};
const request: GenerateRequest = {
  system: 'You are terse.',
  messages: [{ role: 'user', content: 'Weather in Oslo?' }],
  tools: [tool],
  toolChoice: 'auto',
  maxTokens: 500,
  temperature: 0.2,
};

const claude = fake.modelOn((url) =>
  anthropic({
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-ant-test',
    baseURL: url,
    initialRetryDelayMs: 1,
    maxRetries: 1,
  }),
);

const google = fake.modelOn((url) =>
  gemini({
    model: 'gemini-2.5-flash',
    apiKey: 'g-test',
    baseURL: url,
    initialRetryDelayMs: 1,
    maxRetries: 1,
  }),
);

describe('countTokens with Anthropic (POST /v1/messages/count_tokens)', () => {
  it('sends what the model reads, not how it answers, and returns input_tokens', async () => {
    const model = await claude({ json: { input_tokens: 1234 } });
    expect(await countTokens(model, request)).toEqual({ inputTokens: 1234, source: 'provider' });
    const sent = fake.server.requests[0];
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/messages/count_tokens');
    expect(sent.headers['x-api-key']).toBe('sk-ant-test');
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.body).toEqual({
      model: 'claude-sonnet-4-5',
      system: 'You are terse.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] }],
      tools: [
        { name: 'weather', description: 'The forecast for a city.', input_schema: tool.parameters },
      ],
      tool_choice: { type: 'auto' },
    });
  });

  it('retries a 5xx like a generation, then counts', async () => {
    const model = await claude(
      {
        status: 529,
        json: { type: 'error', error: { type: 'overloaded_error', message: 'busy' } },
      },
      { json: { input_tokens: 7 } },
    );
    expect(await countTokens(model, request)).toEqual({ inputTokens: 7, source: 'provider' });
    expect(fake.server.requests).toHaveLength(2);
  });

  it.each([
    [
      'a string',
      { input_tokens: '12' },
      /no input_tokens \(expected a non-negative integer, received string "12"\)/,
    ],
    ['no field', { tokens: 12 }, /no input_tokens .*received undefined/],
    ['a huge number', { input_tokens: 1e300 }, /no input_tokens .*received number 1e\+300/],
    ['a negative number', { input_tokens: -5 }, /received number -5/],
    ['a fraction', { input_tokens: 12.5 }, /received number 12\.5/],
    ['not an object', [12], /no input_tokens/],
  ])('refuses an answer with %s as a ModelError naming what came', async (_, json, message) => {
    const model = await claude({ json });
    const error = await countTokens(model, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toMatch(/^anthropic: the token count answer has /);
    expect((error as ModelError).message).toMatch(message);
  });

  it('reports a 4xx as the provider’s ModelError, and a lasting 5xx as retryable', async () => {
    const model = await claude({
      status: 400,
      json: { type: 'error', error: { type: 'invalid_request_error', message: 'bad model' } },
    });
    const error = await countTokens(model, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect((error as ModelError).message).toMatch(/bad model/);
    await fake.server.close();
    const failing = await claude(
      { status: 500, json: { error: { message: 'down' } } },
      { status: 500, json: { error: { message: 'down' } } },
    );
    await expect(countTokens(failing, request)).rejects.toMatchObject({
      status: 500,
      retryable: true,
    });
  });

  it('stops reading an answer larger than maxBodyBytes', async () => {
    await fake.serve([{ json: { input_tokens: 5, padding: 'x'.repeat(1_000_000) } }]);
    const model = anthropic({
      model: 'claude-sonnet-4-5',
      apiKey: 'k',
      baseURL: fake.server.url,
      maxBodyBytes: 64 * 1024,
    });
    await expect(countTokens(model, request)).rejects.toMatchObject({ code: 'body_too_large' });
  });

  it('honours the request’s abort signal: nothing is sent once it has fired', async () => {
    const model = await claude({ json: { input_tokens: 1 } });
    const controller = new AbortController();
    controller.abort();
    await expect(countTokens(model, { ...request, signal: controller.signal })).rejects.toThrow(
      expect.objectContaining({ name: 'AbortError' }),
    );
    expect(fake.server.requests).toHaveLength(0);
  });

  it('refuses a non-JSON answer', async () => {
    await fake.serve([{ headers: { 'content-type': 'text/plain' } }]);
    const model = anthropic({ model: 'claude-sonnet-4-5', apiKey: 'k', baseURL: fake.server.url });
    await expect(countTokens(model, request)).rejects.toThrow(
      /anthropic: the response was not JSON/,
    );
  });
});

describe('countTokens with Gemini (models/{model}:countTokens)', () => {
  it('sends the whole request as generateContentRequest and returns totalTokens', async () => {
    const model = await google({ json: { totalTokens: 321, promptTokensDetails: [] } });
    expect(await countTokens(model, request)).toEqual({ inputTokens: 321, source: 'provider' });
    const sent = fake.server.requests[0];
    expect(sent.path).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
    expect(sent.headers['x-goog-api-key']).toBe('g-test');
    expect(sent.body.generateContentRequest).toMatchObject({
      model: 'models/gemini-2.5-flash',
      contents: [{ role: 'user', parts: [{ text: 'Weather in Oslo?' }] }],
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
      tools: [{ functionDeclarations: [expect.objectContaining({ name: 'weather' })] }],
      generationConfig: { maxOutputTokens: 500, temperature: 0.2 },
    });
    expect(Object.keys(sent.body)).toEqual(['generateContentRequest']);
  });

  it.each([
    ['a string', { totalTokens: 'many' }, /no totalTokens .*received string "many"/],
    ['no field', { cachedContentTokenCount: 3 }, /no totalTokens .*received undefined/],
    ['a huge number', { totalTokens: 2 ** 60 }, /no totalTokens .*received number/],
  ])('refuses an answer with %s', async (_, json, message) => {
    const model = await google({ json });
    await expect(countTokens(model, request)).rejects.toThrow(message);
  });

  it('reports a 4xx with Google’s message', async () => {
    const model = await google({
      status: 404,
      json: { error: { code: 404, message: 'models/nope is not found', status: 'NOT_FOUND' } },
    });
    const error = await countTokens(model, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 404 });
    expect((error as ModelError).message).toMatch(/is not found/);
  });
});

describe('countTokens without a provider endpoint', () => {
  it('estimates for OpenAI and scripted models', async () => {
    const gpt = openai({ model: 'gpt-4o', apiKey: 'k' });
    expect(gpt.countTokens).toBeUndefined();
    expect(await countTokens(gpt, request)).toEqual({
      inputTokens: estimateTokens(request, gpt),
      source: 'estimate',
    });
    const scripted = scriptedModel([], { id: 'openai:gpt-4o' });
    const hello = { messages: [{ role: 'user' as const, content: 'Hello there!' }] };
    // 'Hello there!' is 3 o200k_base tokens, + 3 for the message + 3 to prime the reply.
    expect(await countTokens(scripted, hello)).toEqual({ inputTokens: 9, source: 'estimate' });
  });

  it('uses a hand-written model’s countTokens, and refuses what is not a count', async () => {
    const base = scriptedModel([]);
    const counting = (result: unknown): Model => ({
      id: 'mine',
      generate: base.generate,
      stream: base.stream,
      countTokens: async () => result as number,
    });
    expect(await countTokens(counting(42), request)).toEqual({
      inputTokens: 42,
      source: 'provider',
    });
    await expect(countTokens(counting('42'), request)).rejects.toThrow(
      /countTokens: mine's countTokens\(request\): expected a non-negative integer, received string "42"/,
    );
    await expect(countTokens(counting(Number.NaN), request)).rejects.toThrow(TypeError);
    await expect(countTokens(null as never, request)).rejects.toThrow(
      /countTokens\(model\): expected a Model \(with an id\), received null/,
    );
  });
});
