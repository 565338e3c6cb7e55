/**
 * `listen()`: a Node HTTP server for one MCP endpoint, loopback by default.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import type { McpHandlerOptions, McpNodeHandler } from './server.ts';

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

export async function listenHttp(
  options: McpListenOptions,
  handler: (options: McpHandlerOptions) => McpNodeHandler,
): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  if (!path.startsWith('/')) throw new TypeError(`listen: path must start with "/", got "${path}"`);
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const urlHost = reachable.includes(':') ? `[${reachable}]` : reachable;
  const allowedHosts = options.allowedHosts ?? defaultAllowedHosts(host);
  const serve = handler({ ...options, allowedHosts });
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname !== path) {
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${urlHost}:${port}${path}`,
    host,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        void serve.close().finally(() => server.closeAllConnections());
      }),
  };
}
