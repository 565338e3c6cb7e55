import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the replay server received. */
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

/** A replay server on 127.0.0.1 answering the n-th request with the n-th reply. */
export interface ReplayServer {
  url: string;
  requests: RecordedRequest[];
  /** Resolves when the client has closed the connection of request `n` (0-based). */
  closed(n: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a local HTTP server that replays scripted provider responses and records requests. */
export async function replayServer(replies: Reply[]): Promise<ReplayServer> {
  const requests: RecordedRequest[] = [];
  const closes: Promise<void>[] = [];
  const server = createServer((req, res) => {
    closes.push(new Promise<void>((resolve) => res.on('close', () => resolve())));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      });
      const reply = replies[requests.length - 1];
      if (!reply) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { message: `no reply scripted for request ${requests.length}` },
          }),
        );
        return;
      }
      const type = reply.sse ? 'text/event-stream' : 'application/json';
      res.writeHead(reply.status ?? 200, { 'content-type': type, ...reply.headers });
      if (reply.sse) for (const event of reply.sse) res.write(`${event}\n\n`);
      else if (reply.json !== undefined) res.write(JSON.stringify(reply.json));
      if (!reply.hang) res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    closed: (n) => closes[n],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
