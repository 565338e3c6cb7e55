/**
 * The checks every HTTP request passes before it reaches the MCP handler: DNS-rebinding
 * protection (`Host` and `Origin` against allow-lists) and an optional bearer token.
 * See docs/decisions/043.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/node';
import { localhostAllowedHostnames } from '@modelcontextprotocol/server';

/** Who may reach an HTTP endpoint. */
export interface HttpGuardOptions {
  /** Required `Authorization: Bearer <token>`; none when absent. */
  token?: string;
  /** Hostnames accepted in `Host` (port-agnostic); default: `localhost`, `127.0.0.1`, `[::1]`. */
  allowedHosts?: string[];
  /** Hostnames accepted in `Origin` when a browser sends one; default: the allowed hosts. */
  allowedOrigins?: string[];
}

/** A request guard: answers and returns `false` when the request may not proceed. */
export type HttpGuard = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Builds the guard for `options`. */
export function httpGuard(options: HttpGuardOptions = {}): HttpGuard {
  const hosts = options.allowedHosts ?? localhostAllowedHostnames();
  const checkHost = hostHeaderValidation(hosts);
  const checkOrigin = originValidation(options.allowedOrigins ?? hosts);
  const expected = options.token === undefined ? undefined : Buffer.from(`Bearer ${options.token}`);
  return (req, res) => {
    if (!checkHost(req, res) || !checkOrigin(req, res)) return false;
    if (expected === undefined) return true;
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
    res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32001, message: 'Unauthorized: send "Authorization: Bearer <token>".' },
        id: null,
      }),
    );
    return false;
  };
}
