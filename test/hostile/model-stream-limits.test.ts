/**
 * A model server that sends one enormous line, event or body: the client stops reading
 * at its limit with a clear ModelError, holding no more than the limit, and a large
 * answer under the limit is parsed in one pass (issue 24 item 5, decision 106).
 */
import { describe, expect, it } from 'vitest';
import { gemini, ModelError, openai, type StreamEvent } from '../../src/ai/model/index.ts';
import {
  FLOOD_MEMORY_BOUND,
  flood,
  SSE_HEADERS,
  useFakeProvider,
} from '../helpers/fake-provider.ts';

const fake = useFakeProvider();

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };
const MiB = 1024 * 1024;

async function lastEvent(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent | undefined> {
  let last: StreamEvent | undefined;
  for await (const event of stream) last = event;
  return last;
}

describe('server-sent events past the limit', () => {
  it('a 100 MB data: line ends the stream with a ModelError, and reading stops at the cap', async () => {
    let sent!: Promise<number>;
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, SSE_HEADERS);
          sent = flood(res, 'data: {"choices":[{"delta":{"content":"', 100 * 1000 * 1000);
        },
      ],
      { repeatLast: true },
    );
    const before = process.memoryUsage();
    const last = await lastEvent(openai({ model: 'm', baseURL: fake.server.url }).stream(ask));
    expect(last?.type).toBe('error');
    const error = last?.type === 'error' ? last.error : undefined;
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'event_too_large', retryable: false });
    expect(error?.message).toBe(
      `openai: one line of the event stream is longer than maxEventBytes (${32 * MiB} bytes); the stream was closed. Raise the limit with openai({ maxEventBytes }) if the server's events are really this large`,
    );
    // The client closed the connection at the cap: the server could not push the other 68 MB.
    const accepted = await sent;
    expect(accepted).toBeLessThan(32 * MiB + 16 * MiB);
    const grown = process.memoryUsage().arrayBuffers - before.arrayBuffers;
    expect(grown).toBeLessThan(FLOOD_MEMORY_BOUND);
  }, 60_000);

  it('the limit is per model: maxEventBytes names the configured size', async () => {
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, SSE_HEADERS);
          void flood(res, 'data: ', 10 * MiB);
        },
      ],
      { repeatLast: true },
    );
    const model = gemini({ model: 'g', apiKey: 'k', baseURL: fake.server.url, maxEventBytes: MiB });
    const last = await lastEvent(model.stream(ask));
    expect(last).toMatchObject({
      type: 'error',
      error: { name: 'ModelError', provider: 'gemini', code: 'event_too_large' },
    });
    expect(last?.type === 'error' && last.error.message).toContain(`maxEventBytes (${MiB} bytes)`);
  });

  it('a 12 MB line under the cap arrives whole (parsed in one pass)', async () => {
    const text = 'a'.repeat(12 * 1000 * 1000);
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, SSE_HEADERS);
          const event = JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] });
          // Small writes, so the line arrives in many chunks, as from a real server.
          const body = Buffer.from(`data: ${event}\n\n`);
          for (let at = 0; at < body.length; at += 16 * 1024)
            res.write(body.subarray(at, at + 16 * 1024));
          res.end(
            `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
          );
        },
      ],
      { repeatLast: true },
    );
    const last = await lastEvent(openai({ model: 'm', baseURL: fake.server.url }).stream(ask));
    expect(last?.type).toBe('stop');
    expect(last?.type === 'stop' && last.result.text.length).toBe(text.length);
  }, 60_000);
});

describe('whole answers past the limit', () => {
  it('a 100 MB JSON answer is refused at maxBodyBytes, reading stopped', async () => {
    let sent!: Promise<number>;
    await fake.serve(
      [
        (res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          sent = flood(res, '{"choices":[{"message":{"content":"', 100 * 1000 * 1000);
        },
      ],
      { repeatLast: true },
    );
    const model = openai({ model: 'm', baseURL: fake.server.url, maxBodyBytes: 4 * MiB });
    await expect(model.generate(ask)).rejects.toMatchObject({
      name: 'ModelError',
      code: 'body_too_large',
      message: `openai: the response is longer than maxBodyBytes (${4 * MiB} bytes); reading stopped. Raise the limit with openai({ maxBodyBytes }) if the server's answers are really this large`,
    });
    expect(await sent).toBeLessThan(4 * MiB + 16 * MiB);
  });

  it('a 100 MB error body is read only far enough for the message', async () => {
    let sent!: Promise<number>;
    await fake.serve(
      [
        (res) => {
          res.writeHead(400, { 'content-type': 'text/plain' });
          sent = flood(res, 'bad request: ', 100 * 1000 * 1000);
        },
      ],
      { repeatLast: true },
    );
    const model = openai({ model: 'm', baseURL: fake.server.url });
    const error = await model.generate(ask).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ModelError', status: 400 });
    expect((error as Error).message).toMatch(/^openai: 400 bad request: a{487}$/);
    expect(await sent).toBeLessThan(16 * MiB);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => openai({ model: 'm', maxEventBytes: 0 })).toThrow(
      'openai(options).maxEventBytes: expected a positive integer number of bytes, received number 0',
    );
  });
});
