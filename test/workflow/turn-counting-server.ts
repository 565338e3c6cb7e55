/**
 * A fake OpenAI Chat Completions server on 127.0.0.1, run by the test process, that
 * answers by conversation position and counts the requests made at each position — so
 * model calls are counted across the worker processes the crash tests kill and restart.
 * The position of a request is its model turn: 1 + the assistant messages it carries.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireCall } from '../ai/agent/providers/fixture.ts';
import { openaiFixture } from '../ai/agent/providers/openai.ts';

/** What the model answers at one turn: tool calls, or a final text. */
export type TurnReply = { toolCalls: WireCall[] } | { text: string };

/** A running server: its URL, the requests it received, by turn. */
export interface TurnCountingServer {
  /** The base URL to give `openai({ baseURL })`. */
  url: string;
  /** How many requests arrived at each turn (1-based). */
  counts(): Record<number, number>;
  /** The request bodies received, in arrival order. */
  readonly bodies: Array<{ messages: Array<Record<string, unknown>> }>;
  close(): Promise<void>;
}

/** Starts a server answering turn n with `replies[n - 1]`; a turn past the script gets a 500. */
export async function turnCountingServer(replies: TurnReply[]): Promise<TurnCountingServer> {
  const bodies: TurnCountingServer['bodies'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      bodies.push(body);
      const reply = replies[turnOf(body) - 1];
      if (!reply || req.url !== '/chat/completions' || body.stream) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: `no reply for ${req.url} at turn ${turnOf(body)}` } }),
        );
        return;
      }
      const wire =
        'text' in reply
          ? openaiFixture.text(reply.text, false)
          : openaiFixture.toolCalls(reply.toolCalls, false);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(wire.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    counts() {
      const counts: Record<number, number> = {};
      for (const body of bodies) counts[turnOf(body)] = (counts[turnOf(body)] ?? 0) + 1;
      return counts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request's turn: 1 + the assistant messages of the conversation it sends. */
const turnOf = (body: { messages?: Array<{ role?: unknown }> }): number =>
  1 + (body.messages ?? []).filter((message) => message.role === 'assistant').length;
