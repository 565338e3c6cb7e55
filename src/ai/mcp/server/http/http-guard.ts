/**
 * The checks every HTTP request passes before it reaches the MCP handler: a request-target
 * that is a path, DNS-rebinding protection (`Host` and `Origin` against allow-lists) and
 * an optional bearer token. See docs/decisions/043 and 052.
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

/** Longest request-target quoted back in a `400` body. */
const QUOTED_TARGET_CHARS = 100;

/**
 * The path of an origin-form request-target (`/mcp?x=1` → `/mcp`), or `undefined` for
 * any other form: absolute-form (`http://host/mcp`, `http://[`), authority-form,
 * asterisk-form (`*`), and a path starting with `//`, which URL parsers read as a host
 * (`//[`, `//evil.example/mcp`). Any other target starting with `/` parses, as it lands
 * in the path of a fixed base.
 */
export function requestPath(target: string | undefined): string | undefined {
  if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//')) {
    return undefined;
  }
  return new URL(`http://localhost${target}`).pathname;
}

/**
 * The request's path, or `undefined` after answering `400` when its request-target is
 * not a path: nothing after this check parses a target of another form.
 */
export function pathOrBadRequest(req: IncomingMessage, res: ServerResponse): string | undefined {
  const path = requestPath(req.url);
  if (path !== undefined) return path;
  const target = String(req.url ?? '');
  const quoted =
    target.length > QUOTED_TARGET_CHARS
      ? `${JSON.stringify(target.slice(0, QUOTED_TARGET_CHARS))}… (${target.length} characters)`
      : JSON.stringify(target);
  res.writeHead(400, { 'Content-Type': 'application/json' });
  res.end(
    JSON.stringify({
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message: `Bad Request: expected a request-target that is a path such as /mcp, received ${quoted}`,
      },
      id: null,
    }),
  );
  return undefined;
}

/** Builds the guard for `options`. */
export function httpGuard(options: HttpGuardOptions = {}): HttpGuard {
  const hosts = options.allowedHosts ?? localhostAllowedHostnames();
  const checkHost = hostHeaderValidation(hosts);
  const checkOrigin = originValidation(options.allowedOrigins ?? hosts);
  const expected = options.token === undefined ? undefined : Buffer.from(`Bearer ${options.token}`);
  return (req, res) => {
    if (pathOrBadRequest(req, res) === undefined) return false;
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
