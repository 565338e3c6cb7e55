import { describe, expect, it } from 'vitest';
import { parseServerSentEvents, type ServerSentEvent } from '../../../../src/ai/model/wire/sse.ts';

async function parse(...chunks: (string | Uint8Array)[]): Promise<ServerSentEvent[]> {
  const encoder = new TextEncoder();
  async function* body() {
    for (const chunk of chunks) yield typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
  }
  const out: ServerSentEvent[] = [];
  for await (const event of parseServerSentEvents(body())) out.push(event);
  return out;
}

describe('parseServerSentEvents', () => {
  it('reads event names and data, skipping comments and unknown fields', async () => {
    expect(
      await parse(': keep-alive\n', 'event: ping\ndata: {}\n\n', 'id: 7\nretry: 10\ndata: x\n\n'),
    ).toEqual([
      { event: 'ping', data: '{}' },
      { event: undefined, data: 'x' },
    ]);
  });

  it('joins multi-line data and handles CRLF and CR line endings', async () => {
    expect(await parse('data: a\r\ndata: b\r\n\r\ndata:c\r\rdata: d\n\n')).toEqual([
      { event: undefined, data: 'a\nb' },
      { event: undefined, data: 'c' },
      { event: undefined, data: 'd' },
    ]);
  });

  it('reassembles lines, CRLF pairs and characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('data: €\r\n\r\n');
    expect(await parse(bytes.slice(0, 7), bytes.slice(7, 9), bytes.slice(9))).toEqual([
      { event: undefined, data: '€' },
    ]);
    expect(await parse('da', 'ta: {"a"', ':1}\n', '\n')).toEqual([
      { event: undefined, data: '{"a":1}' },
    ]);
  });

  it('dispatches a final event the server did not end with a blank line', async () => {
    expect(await parse('data: [DONE]')).toEqual([{ event: undefined, data: '[DONE]' }]);
  });
});

async function collect(
  body: AsyncIterable<Uint8Array>,
  maxEventBytes?: number,
): Promise<ServerSentEvent[]> {
  const out: ServerSentEvent[] = [];
  for await (const event of parseServerSentEvents(body, { provider: 'p', maxEventBytes })) {
    out.push(event);
  }
  return out;
}

function* bytes(...chunks: string[]) {
  for (const chunk of chunks) yield new TextEncoder().encode(chunk);
}

async function* asyncOf(chunks: Iterable<Uint8Array>) {
  yield* chunks;
}

describe('parseServerSentEvents: limits', () => {
  it('skips a byte order mark at the start of the stream only', async () => {
    expect(await collect(asyncOf(bytes('\uFEFFdata: a\n\ndata: \uFEFFb\n\n')))).toEqual([
      { event: undefined, data: 'a' },
      { event: undefined, data: '\uFEFFb' },
    ]);
  });

  it('counts a line in bytes, not characters, and allows exactly the limit', async () => {
    // "data: " + 4 three-byte characters = 18 bytes.
    const line = `data: ${'€'.repeat(4)}`;
    expect(await collect(asyncOf(bytes(`${line}\n\n`)), 18)).toEqual([
      { event: undefined, data: '€€€€' },
    ]);
    await expect(collect(asyncOf(bytes(`${line}\n\n`)), 17)).rejects.toMatchObject({
      name: 'ModelError',
      provider: 'p',
      code: 'event_too_large',
    });
  });

  it('refuses a line past the limit while it is still arriving, saying how to raise it', async () => {
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled++;
        yield new Uint8Array(1024).fill(0x61);
      }
    }
    await expect(collect(endless(), 10_000)).rejects.toThrow(
      'p: one line of the event stream is longer than maxEventBytes (10000 bytes); the stream was closed. Raise the limit with p({ maxEventBytes })',
    );
    expect(pulled).toBe(10);
  });

  it('refuses an event whose data lines together pass the limit', async () => {
    const lines = Array.from({ length: 20 }, () => `data: ${'x'.repeat(94)}\n`).join('');
    await expect(collect(asyncOf(bytes(lines, '\n')), 1000)).rejects.toThrow(
      'p: one event of the event stream is longer than maxEventBytes (1000 bytes)',
    );
    // The same lines as separate events pass.
    const events = Array.from({ length: 20 }, () => `data: ${'x'.repeat(94)}\n\n`).join('');
    expect(await collect(asyncOf(bytes(events)), 1000)).toHaveLength(20);
  });

  it('does not count comments toward an event, only toward their own line', async () => {
    const comments = Array.from({ length: 50 }, () => `: ${'k'.repeat(50)}\n`).join('');
    expect(await collect(asyncOf(bytes(comments, 'data: ok\n\n')), 100)).toEqual([
      { event: undefined, data: 'ok' },
    ]);
  });

  it('reads a CRLF split between chunks as one line end', async () => {
    expect(await collect(asyncOf(bytes('data: a\r', '\ndata: b\r', '\n\r', '\n')))).toEqual([
      { event: undefined, data: 'a\nb' },
    ]);
  });

  it('parses a 12 MB line arriving in 16 KiB chunks (each byte scanned once)', async () => {
    const size = 12 * 1024 * 1024;
    const chunk = new Uint8Array(16 * 1024).fill(0x61);
    async function* body() {
      yield new TextEncoder().encode('data: ');
      for (let sent = 0; sent < size; sent += chunk.length) yield chunk;
      yield new TextEncoder().encode('\n\n');
    }
    const [event] = await collect(body());
    expect(event.data.length).toBe(size);
  }, 60_000);
});
