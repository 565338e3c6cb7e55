import { describe, expect, it } from 'vitest';
import { parseServerSentEvents, type ServerSentEvent } from '../../../src/ai/model/sse.ts';

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
