import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Answers the n-th request (0-based); may write slowly, stall or never answer. */
export type Handler = (res: ServerResponse, req: IncomingMessage) => void;

/** A local HTTP server whose answers are functions, for stalls and slow streams. */
export interface ScriptedServer {
  url: string;
  /** How many requests arrived. */
  readonly count: number;
  /** Resolves when the client has closed the connection of request `n` (0-based). */
  closed(n: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a server answering request n with `handlers[n]` (the last one repeats). */
export async function scriptedServer(...handlers: Handler[]): Promise<ScriptedServer> {
  const closes: Promise<void>[] = [];
  let count = 0;
  const server = createServer((req, res) => {
    closes.push(new Promise<void>((resolve) => res.on('close', () => resolve())));
    const handler = handlers[Math.min(count, handlers.length - 1)];
    count++;
    req.resume();
    req.on('end', () => handler(res, req));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
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

/** Writes `text` every `ms` until the connection closes. */
export function every(res: ServerResponse, ms: number, text: string): void {
  const timer = setInterval(() => res.write(text), ms);
  res.on('close', () => clearInterval(timer));
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream' };

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
