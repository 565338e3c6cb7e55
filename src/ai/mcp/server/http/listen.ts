/**
 * `listen()`: a Node HTTP server for one MCP endpoint, loopback by default.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import { pathOrBadRequest } from './http-guard.ts';
import type { McpHandlerOptions, McpNodeHandler } from './http-handler.ts';

/** Options of `McpToolServer.listen()`. */
export interface McpListenOptions extends McpHandlerOptions {
  /** Interface to bind (default `127.0.0.1`). */
  host?: string;
  /** Port to bind (default `0`: a free port; read it from the result). */
  port?: number;
  /** The endpoint's path (default `/mcp`); other paths get `404`. */
  path?: string;
}

/** A running Streamable HTTP server. */
export interface McpHttpServer {
  /** The endpoint's URL, e.g. `http://127.0.0.1:3000/mcp` (a loopback one when bound to every interface). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Stops accepting connections, ends open ones, and resolves when closed. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const WILDCARD = new Set(['0.0.0.0', '::']);

/**
 * The `Host` names a server bound to `host` answers to: loopback names, plus the bound
 * name — or, bound to every interface, this machine's name and addresses.
 */
export function defaultAllowedHosts(host: string): string[] {
  const bracket = (name: string) => (name.includes(':') ? `[${name}]` : name);
  if (LOOPBACK.has(host)) return localhostAllowedHostnames();
  const names = WILDCARD.has(host)
    ? [
        hostname(),
        ...Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address)),
      ]
    : [host];
  return [...new Set([...localhostAllowedHostnames(), ...names.map(bracket)])];
}

/**
 * A clear error for a failed bind, naming the address and the cause; the system error is
 * its `cause`. No command-line flag is named here: each command adds its own (the CLI's
 * `listenProblem`).
 */
function listenError(error: Error, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const hint =
    code === 'EADDRINUSE'
      ? `${address} is already in use`
      : code === 'EACCES'
        ? `binding ${address} is not permitted (ports below 1024 need privileges)`
        : code === 'EADDRNOTAVAIL'
          ? `${address} is not an address of this machine`
          : `cannot listen on ${address}: ${error.message}`;
  return new Error(`listen: ${hint}`, { cause: error });
}

/** Starts a Node HTTP server serving `handler` at `options.path`; see `McpToolServer.listen()`. */
export async function listenHttp(
  options: McpListenOptions,
  handler: (options: McpHandlerOptions) => McpNodeHandler,
): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  if (!path.startsWith('/'))
    throw new TypeError(`listen: path: expected a path starting with "/", received "${path}"`);
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const urlHost = reachable.includes(':') ? `[${reachable}]` : reachable;
  const allowedHosts = options.allowedHosts ?? defaultAllowedHosts(host);
  const serve = handler({ ...options, allowedHosts });
  const server = createServer((req, res) => {
    const pathname = pathOrBadRequest(req, res);
    if (pathname === undefined) return;
    // OAuth protected-resource metadata lives beside the endpoint (served when auth is set).
    if (pathname !== path && !pathname.startsWith('/.well-known/oauth-protected-resource')) {
      res
        .writeHead(404, { 'Content-Type': 'text/plain' })
        .end(`Not found: the MCP endpoint is ${path}`);
      return;
    }
    serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const port = options.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      void serve.close();
      reject(listenError(error, host, port));
    };
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${urlHost}:${bound}${path}`,
    host,
    port: bound,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        void serve.close().finally(() => server.closeAllConnections());
      }),
  };
}
