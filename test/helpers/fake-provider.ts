/**
 * The fake provider server every model test talks to: a local HTTP server on 127.0.0.1
 * that answers the n-th request with the n-th scripted reply — a JSON body, server-sent
 * events, or a function of the response for stalls, slow streams, cuts and floods — and
 * records each request. `useFakeProvider()` gives a test file one per test, closed after
 * it; the SSE and Chat Completions pieces the tests build their replies from are here too.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** One request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/** How the server answers one request. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON body. */
  json?: unknown;
  /** Server-sent events, each a complete `data: …` block (a blank line is added). */
  sse?: string[];
  /** Keep the connection open after the body instead of ending it. */
  hang?: boolean;
}

/** Answers one request by hand; may write slowly, stall or never answer. */
export type Handler = (res: ServerResponse, req: IncomingMessage) => void;

/** A fake provider server. */
export interface FakeProvider {
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** How many requests arrived. */
  readonly count: number;
  /** Resolves when the client has closed the connection of request `n` (0-based). */
  closed(n: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a server answering request n with `replies[n]`: past the last one, with a 500
 * naming the request (`repeatLast`: the last reply again).
 */
export async function fakeProvider(
  replies: ReadonlyArray<Reply | Handler>,
  { repeatLast = false } = {},
): Promise<FakeProvider> {
  const requests: RecordedRequest[] = [];
  const closes: Promise<void>[] = [];
  let count = 0;
  const server = createServer((req, res) => {
    closes.push(new Promise<void>((resolve) => res.on('close', () => resolve())));
    const n = count++;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: parseBody(text),
      });
      const reply = replies[repeatLast ? Math.min(n, replies.length - 1) : n];
      if (typeof reply === 'function') reply(res, req);
      else answer(res, reply, n);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get count() {
      return count;
    },
    closed: (n) => closes[n],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The request's JSON body (what every adapter sends); its text when it is not JSON. */
function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function answer(res: ServerResponse, reply: Reply | undefined, n: number): void {
  if (!reply) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `no reply scripted for request ${n + 1}` } }));
    return;
  }
  const type = reply.sse ? 'text/event-stream' : 'application/json';
  res.writeHead(reply.status ?? 200, { 'content-type': type, ...reply.headers });
  if (reply.sse) for (const event of reply.sse) res.write(`${event}\n\n`);
  else if (reply.json !== undefined) res.write(JSON.stringify(reply.json));
  if (!reply.hang) res.end();
}

/** A server replaying `replies` in order and recording the requests. */
export function replayServer(replies: Reply[]): Promise<FakeProvider> {
  return fakeProvider(replies);
}

/** A server answering request n with `handlers[n]` (the last one repeats). */
export function scriptedServer(...handlers: Handler[]): Promise<FakeProvider> {
  return fakeProvider(handlers, { repeatLast: true });
}

/** One test file's fake provider: `serve` starts this test's, `server` is it; closed after each test. */
export interface FakeProviderPerTest {
  serve(
    replies: ReadonlyArray<Reply | Handler>,
    options?: { repeatLast?: boolean },
  ): Promise<FakeProvider>;
  /** The server of the running test. */
  readonly server: FakeProvider;
  /** A function that starts this test's server with its replies and returns `model` pointed at it. */
  modelOn<M>(model: (url: string) => M): (...replies: Reply[]) => Promise<M>;
}

/** Registers the `afterEach` that closes each test's fake provider. */
export function useFakeProvider(): FakeProviderPerTest {
  let current: FakeProvider | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    async serve(replies, options) {
      current = await fakeProvider(replies, options);
      return current;
    },
    get server() {
      if (!current) throw new Error('no fake provider started in this test');
      return current;
    },
    modelOn:
      (model) =>
      async (...replies) => {
        current = await fakeProvider(replies);
        return model(current.url);
      },
  };
}

/** Every event of a stream, in order. */
export async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const event of events) out.push(event);
  return out;
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream' };

/** One SSE block of JSON data: `data: <json>`. */
export const sseData = (value: unknown) => `data: ${JSON.stringify(value)}`;

/** One typed SSE event (Anthropic, Responses): `event: <type>` then its JSON data. */
export const sseEvent = (value: { type: string } & Record<string, unknown>) =>
  `event: ${value.type}\ndata: ${JSON.stringify(value)}`;

/** A documented Chat Completions stream chunk with one choice. */
export const chatChunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  sseData({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-test',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

/** Writes `text` every `ms` until the connection closes. */
export function every(res: ServerResponse, ms: number, text: string): void {
  const timer = setInterval(() => res.write(text), ms);
  res.on('close', () => clearInterval(timer));
}

/**
 * The most buffer memory a client reading a flood past its 32 MiB event cap may be seen to
 * grow by: the cap, plus the fake server's write queue in the same process, plus buffers
 * not yet collected. 64 MiB was exceeded by 0.8 and by 4.7 MiB on loaded Node 24 runs;
 * still well under the 95 MiB an unbounded reader would hold for the line alone.
 */
export const FLOOD_MEMORY_BOUND = 80 * 1024 * 1024;

/**
 * Writes `prefix`, then `size` bytes of "a" in 64 KiB chunks as fast as the client reads
 * them; resolves with how many bytes the socket accepted before the client closed it.
 */
export function flood(res: ServerResponse, prefix: string, size: number): Promise<number> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let written = prefix.length;
    res.write(prefix);
    res.on('close', () => resolve(written));
    const pump = () => {
      while (written < size && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  });
}
