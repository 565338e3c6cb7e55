/**
 * The Node `(req, res)` handler serving MCP's Streamable HTTP transport: both protocol
 * eras behind the `Host`/`Origin` guard. `McpToolServer.handler()` and `listen()` use it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type Server, type ServerNotifier } from '@modelcontextprotocol/server';
import { eraRouter } from './era-router.ts';
import { type HttpGuardOptions, httpGuard } from './http-guard.ts';
import { legacySessions } from './legacy-sessions.ts';
import { refusing } from './listen-refusal.ts';
import type { ServerAuth } from './oauth.ts';

/** Options of `McpToolServer.handler()`. */
export interface McpHandlerOptions extends HttpGuardOptions {
  /** Largest accepted request body in bytes (default 4 MiB); larger bodies get `413`. */
  maxBodyBytes?: number;
}

/** A Node `(req, res)` request handler serving MCP's Streamable HTTP transport. */
export interface McpNodeHandler {
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Ends open sessions and calls in flight. */
  close(): Promise<void>;
}

/** What the handler needs from the tool server it serves. */
export interface HttpHandlerServers {
  /** A fresh server for one modern (stateless) request. */
  createServer(): Server;
  /** A server for a 2025-era session, which stays open and hears list changes. */
  createConnectedServer(): Server;
  /** Where the modern handler registers to hear list changes and resource updates while it is open. */
  notifiers: Set<ServerNotifier>;
  /** Stops what the server runs beside its requests (the MCP task poller), when the handler closes. */
  close?(): void;
  /** The JSON-RPC error answering a 2026-era request body the server refuses outright. */
  refuse?(body: unknown): object | undefined;
  /** OAuth: protected-resource metadata and the bearer-token check (decision 125). */
  auth?: ServerAuth;
}

/** Builds the Streamable HTTP handler for one tool server; see `McpToolServer.handler()`. */
export function httpHandler(
  servers: HttpHandlerServers,
  handlerOptions: McpHandlerOptions = {},
): McpNodeHandler {
  const { notifiers } = servers;
  const maxRequestBodySize = handlerOptions.maxBodyBytes;
  const modern = createMcpHandler(servers.createServer, { legacy: 'reject', maxRequestBodySize });
  notifiers.add(modern.notify);
  const legacy = legacySessions(servers.createConnectedServer);
  const serve = toNodeHandler(
    { fetch: eraRouter(refusing(modern.fetch, servers.refuse), legacy.fetch, maxRequestBodySize) },
    { maxRequestBodySize },
  );
  const guard = httpGuard(handlerOptions);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!guard(req, res)) return;
    if (servers.auth !== undefined && !(await servers.auth.handle(req, res))) return;
    await serve(req, res);
  };
  return Object.assign(handle, {
    close: async () => {
      servers.close?.();
      notifiers.delete(modern.notify);
      await Promise.all([modern.close(), legacy.close()]);
    },
  });
}
