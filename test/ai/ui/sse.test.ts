/**
 * The SSE response: ai 7's headers, `data: <json>` events every one of which ai's own chunk
 * schema accepts, `[DONE]` at the end, and a bounded buffer for a client that does not read.
 */
import { UI_MESSAGE_STREAM_HEADERS as AI_HEADERS } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  UI_MESSAGE_STREAM_HEADERS,
  type UIMessageChunk,
  uiMessageChunks,
  uiMessageStreamResponse,
} from '../../../src/ai/ui/index.ts';
import { finoAgent, parsedEvents } from '../../helpers/ui-turns.ts';

describe('uiMessageStreamResponse', () => {
  it('sends ai 7’s headers (the caller’s added, the protocol’s winning)', () => {
    expect(UI_MESSAGE_STREAM_HEADERS).toEqual(AI_HEADERS);
    const response = uiMessageStreamResponse((async function* () {})(), {
      status: 201,
      headers: { 'content-type': 'text/plain', 'x-run': 'r1' },
    });
    expect(response.status).toBe(201);
    expect(Object.fromEntries(response.headers)).toEqual({ ...AI_HEADERS, 'x-run': 'r1' });
  });

  it('every chunk of a tool turn, an approval and an error passes ai’s uiMessageChunkSchema', async () => {
    const turns = [
      {
        reasoning: 'hm',
        text: 'Go.',
        calls: [{ id: 'c1', name: 'photo', input: { city: 'Oslo' } }],
      },
      { calls: [{ id: 'c2', name: 'broken', input: { city: 'Oslo' } }] },
      { calls: [{ id: 'c3', name: 'pay', input: { city: 'Oslo' } }] },
    ];
    const run = finoAgent(turns).stream('hi', { runId: 'run_1' });
    const results = await parsedEvents(
      uiMessageStreamResponse(uiMessageChunks(run, { runId: 'run_1' })),
    );
    expect(results.filter((r) => !r.success)).toEqual([]);
    const types = results.map((r) => (r.value as UIMessageChunk).type);
    expect(types).toContain('tool-approval-request');
    expect(types).toContain('tool-output-error');
    const failed = finoAgent([{ error: 'down' }]).stream('hi');
    const errors = await parsedEvents(uiMessageStreamResponse(uiMessageChunks(failed)));
    expect(errors.filter((r) => !r.success)).toEqual([]);
    expect(errors.map((r) => (r.value as UIMessageChunk).type)).toContain('data-fino-error');
  });

  it('writes one `data: <json>` event per chunk and `data: [DONE]` at the end', async () => {
    const body = await uiMessageStreamResponse(
      (async function* () {
        yield { type: 'start', messageId: 'm1' } as const;
        yield { type: 'finish' } as const;
      })(),
    ).text();
    expect(body).toBe(
      'data: {"type":"start","messageId":"m1"}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n',
    );
  });

  it('a source that throws ends the stream with its error chunks, not a broken body', async () => {
    const body = await uiMessageStreamResponse(
      (async function* () {
        yield { type: 'start' } as const;
        throw Object.assign(new Error('store down'), { code: 'STORE_UNAVAILABLE' });
      })(),
    ).text();
    expect(body).toContain('"errorText":"STORE_UNAVAILABLE: store down"');
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('past limits.maxBufferedBytes unread, ends the stream with STREAM_OVERFLOW and closes the source', async () => {
    let pulled = 0;
    let closed = false;
    async function* endless() {
      try {
        for (;;) {
          pulled++;
          yield { type: 'text-delta', id: 't', delta: 'x'.repeat(100) } as const;
        }
      } finally {
        closed = true;
      }
    }
    const response = uiMessageStreamResponse(endless(), { limits: { maxBufferedBytes: 10_000 } });
    await expect.poll(() => closed, { timeout: 5_000 }).toBe(true);
    expect(pulled).toBeLessThan(100); // ≈ 10,000 bytes of 140-byte events, then it stopped
    const body = await response.text();
    expect(body.length).toBeLessThan(11_000);
    expect(body).toContain('"errorText":"STREAM_OVERFLOW: the client read too slowly');
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() =>
      uiMessageStreamResponse((async function* () {})(), { limits: { maxBufferedBytes: 0 } }),
    ).toThrow(/limits\.maxBufferedBytes: expected a positive integer, received 0/);
  });

  it('an aborted signal ends the stream and closes the source at once', async () => {
    let closed = false;
    let sent = false;
    const controller = new AbortController();
    const waiting: AsyncIterable<UIMessageChunk> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          if (!sent) {
            sent = true;
            return { done: false, value: { type: 'start' } };
          }
          return new Promise<IteratorResult<UIMessageChunk>>(() => {}); // a run that never ends
        },
        return: async () => {
          closed = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const response = uiMessageStreamResponse(waiting, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    expect((await reader.read()).done).toBe(true);
    await expect.poll(() => closed).toBe(true);
  });
});
