import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openai } from '../../../../src/ai/model/index.ts';
import { retryAfterMs } from '../../../../src/ai/model/wire/http.ts';
import { useFakeProvider } from '../../../helpers/fake-provider.ts';

const fake = useFakeProvider();

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };
const ok = {
  json: {
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  },
};

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const headers = (init: Record<string, string>) => new Headers(init);

  it('reads seconds, HTTP dates and retry-after-ms', () => {
    expect(retryAfterMs(headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(
      3000,
    );
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
  });

  it('ignores missing, negative and unreadable values', () => {
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '-1' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
  });
});

describe('retries', () => {
  it('caps a long retry-after at maxRetryDelayMs', async () => {
    await fake.serve([{ status: 429, headers: { 'retry-after': '3600' }, json: {} }, ok]);
    const model = openai({ model: 'm', baseURL: fake.server.url, maxRetryDelayMs: 1 });
    expect((await model.generate(ask)).text).toBe('ok');
    expect(fake.server.requests).toHaveLength(2);
  });

  it('retries with exponential backoff when no retry-after is given', async () => {
    await fake.serve([{ status: 502, json: {} }, { status: 500, json: {} }, ok]);
    const model = openai({ model: 'm', baseURL: fake.server.url, initialRetryDelayMs: 1 });
    expect((await model.generate(ask)).text).toBe('ok');
    expect(fake.server.requests).toHaveLength(3);
  });

  it('does not retry when maxRetries is 0', async () => {
    await fake.serve([{ status: 503, json: { error: { message: 'busy' } } }, ok]);
    const model = openai({ model: 'm', baseURL: fake.server.url, maxRetries: 0 });
    await expect(model.generate(ask)).rejects.toThrow('openai: 503 busy');
    expect(fake.server.requests).toHaveLength(1);
  });

  it('retries network failures, then names the unreachable URL', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const model = openai({
      model: 'm',
      baseURL: `http://127.0.0.1:${port}/v1`,
      maxRetries: 1,
      initialRetryDelayMs: 1,
    });
    await expect(model.generate(ask)).rejects.toMatchObject({
      name: 'ModelError',
      retryable: true,
      message: expect.stringMatching(
        new RegExp(
          `^openai: could not reach http://127.0.0.1:${port}/v1/chat/completions .* after 1 retry$`,
        ),
      ),
    });
  });

  it('reports a non-JSON success body clearly', async () => {
    await fake.serve([{ json: undefined, headers: { 'x-request-id': 'r1' } }]);
    const model = openai({ model: 'm', baseURL: fake.server.url });
    await expect(model.generate(ask)).rejects.toMatchObject({
      name: 'ModelError',
      requestId: 'r1',
      message: expect.stringMatching(/^openai: the response was not JSON/),
    });
  });
});
