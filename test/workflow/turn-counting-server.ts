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

/**
 * What the model answers at one turn: tool calls, or a final text. With `holdFirst`, the
 * first request of the turn is never answered (a model call in flight when its worker dies).
 */
export type TurnReply = ({ toolCalls: WireCall[] } | { text: string }) & { holdFirst?: boolean };

/** A running server: its URL, the requests it received, by turn. */
export interface TurnCountingServer {
  /** The base URL to give `openai({ baseURL })`. */
  url: string;
  /** How many requests arrived at each turn (1-based). */
  counts(): Record<number, number>;
  /** How many requests were answered at each turn. */
  answered(): Record<number, number>;
  /** Resolves when a request of `turn` has arrived. */
  arrived(turn: number): Promise<void>;
  /** The request bodies received, in arrival order. */
  readonly bodies: Array<{ messages: Array<Record<string, unknown>> }>;
  close(): Promise<void>;
}

/** Starts a server answering turn n with `replies[n - 1]`; a turn past the script gets a 500. */
export async function turnCountingServer(replies: TurnReply[]): Promise<TurnCountingServer> {
  const bodies: TurnCountingServer['bodies'] = [];
  const answered: Record<number, number> = {};
  const waiters: Array<{ turn: number; resolve(): void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      bodies.push(body);
      const turn = turnOf(body);
      for (const waiter of waiters.filter((w) => w.turn === turn)) waiter.resolve();
      const reply = replies[turn - 1];
      if (!reply || req.url !== '/chat/completions' || body.stream) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: `no reply for ${req.url} at turn ${turnOf(body)}` } }),
        );
        return;
      }
      if (reply.holdFirst && bodies.filter((b) => turnOf(b) === turn).length === 1) return;
      answered[turn] = (answered[turn] ?? 0) + 1;
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
    answered: () => ({ ...answered }),
    arrived: (turn) =>
      bodies.some((body) => turnOf(body) === turn)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ turn, resolve })),
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
