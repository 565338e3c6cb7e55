/**
 * The inbox on a Node.js HTTP server: a small adapter from `node:http` to the
 * web-standard handler of {@link inbox}.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { bridgeNodeRequest } from '../../../internal/node-http.ts';
import { inbox } from './handler.ts';
import type { InboxOptions } from './options.ts';

/** Options of {@link serveInbox}: the inbox's, and where to listen. */
export interface ServeInboxOptions extends InboxOptions {
  /** The port (default 0: any free port; read it from `url`). */
  port?: number;
  /**
   * The address to bind (default `127.0.0.1`). Any other than loopback needs `token`:
   * the inbox decides real tool calls.
   */
  host?: string;
}

/** A running inbox server. */
export interface InboxServer {
  /**
   * The inbox's address, with `?token=…` when one `token` is set: open it once in a
   * browser. With `tokens`, each approver opens it with their own `?token=…`.
   */
  url: string;
  /** Stops listening and closes open connections (live-update streams included). */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const hostPart = (host: string) => (host.includes(':') ? `[${host}]` : host);

/**
 * Checks the request's `Host` (against DNS rebinding), then runs `handle` on it through
 * the shared Node bridge.
 */
async function bridge(
  handle: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
  allowedHosts: Set<string> | undefined,
): Promise<void> {
  const host = req.headers.host ?? '';
  // DNS rebinding: a page on evil.example resolved to 127.0.0.1 would be same-origin with itself.
  if (host === '' || (allowedHosts && !allowedHosts.has(host.toLowerCase()))) {
    res
      .writeHead(421, { 'content-type': 'text/plain; charset=utf-8' })
      .end(
        `Misdirected request: expected Host to be one of ${[...(allowedHosts ?? [])].join(', ')}\n`,
      );
    return;
  }
  await bridgeNodeRequest(handle, req, res, host);
}

/**
 * Serves the approval inbox (see {@link inbox}) on a Node.js HTTP server, by default on
 * 127.0.0.1 only. Binding any other address without `token` is refused. On loopback,
 * requests must name the server by a loopback `Host` (a defence against DNS rebinding).
 *
 * @example
 * ```ts
 * import { serveInbox, session, sqliteStore } from 'fino:ai/session';
 *
 * const store = sqliteStore();
 * const server = await serveInbox({ session: session({ store }), port: 8080 });
 * console.log(`open ${server.url}`);
 * process.once('SIGINT', () => server.close().then(() => store.close()));
 * ```
 */
export async function serveInbox(options: ServeInboxOptions): Promise<InboxServer> {
  const host = options.host ?? '127.0.0.1';
  const loopback = LOOPBACK.has(host);
  if (!loopback && options.token === undefined && options.tokens === undefined) {
    throw new TypeError(
      `serveInbox: a token is required to listen on ${host} (anyone who reaches it could approve tool calls); pass token or tokens, or bind 127.0.0.1`,
    );
  }
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new RangeError(`serveInbox: port: expected an integer from 0 to 65535, received ${port}`);
  }
  const handle = inbox(options);
  let allowedHosts: Set<string> | undefined;
  const server = createServer((req, res) => {
    bridge(handle, req, res, allowedHosts).catch((error: unknown) => {
      (options.onError ?? console.error)(error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end();
    });
  });
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  if (loopback) {
    allowedHosts = new Set(['127.0.0.1', 'localhost', '[::1]'].map((name) => `${name}:${bound}`));
  }
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  const token = options.token === undefined ? '' : `?token=${encodeURIComponent(options.token)}`;
  return {
    url: `http://${hostPart(host)}:${bound}${base}/${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
