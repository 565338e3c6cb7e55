/**
 * Where an MCP client connects: a server process spoken to over stdio, or a Streamable
 * HTTP endpoint. Both are described as plain data and opened by the official SDK.
 */
import { StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describeValue } from '../../../internal/describe-value.ts';
import { type McpOAuth, oauthFetch } from './oauth.ts';

/** A server process to start and speak to over its stdin/stdout. */
export interface StdioTransportOptions {
  command: string;
  args?: string[];
  /** The child's environment (default: a safe subset of this process's, as the SDK chooses). */
  env?: Record<string, string>;
  cwd?: string;
  /** What happens to the child's stderr (default `'inherit'`). */
  stderr?: 'inherit' | 'ignore' | 'pipe';
}

/** A Streamable HTTP endpoint. */
export interface HttpTransportOptions {
  url: string | URL;
  /** Extra headers on every request, e.g. `{ Authorization: 'Bearer …' }`. */
  headers?: Record<string, string>;
  /** OAuth 2.1 login, made with `oauth()` (decision 123). */
  auth?: McpOAuth;
}

/** A transport description, made by {@link stdioTransport} or {@link httpTransport}. */
export type McpTransportSpec =
  | ({ kind: 'stdio' } & StdioTransportOptions)
  | ({ kind: 'http' } & HttpTransportOptions);

/**
 * Connect to a server process over stdio.
 *
 * @example
 * ```ts
 * import { mcpClient, stdioTransport } from 'fino:ai/mcp';
 *
 * const client = mcpClient({ transport: stdioTransport({ command: 'npx', args: ['fino', 'mcp', 'tools.ts'] }) });
 * ```
 */
export function stdioTransport(options: StdioTransportOptions): McpTransportSpec {
  if (typeof options?.command !== 'string' || options.command === '') {
    throw new TypeError(
      `stdioTransport: command: expected a non-empty string (the program to start), received ${describeValue(options?.command)}`,
    );
  }
  return { kind: 'stdio', ...options };
}

/**
 * Connect to a Streamable HTTP endpoint.
 *
 * @example
 * ```ts
 * import { httpTransport, mcpClient } from 'fino:ai/mcp';
 *
 * const client = mcpClient({
 *   transport: httpTransport({ url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer s3cret' } }),
 * });
 * ```
 */
export function httpTransport(options: HttpTransportOptions): McpTransportSpec {
  try {
    new URL(options?.url);
  } catch {
    throw new TypeError(
      `httpTransport: url: expected an absolute URL, received ${describeValue(options?.url)}`,
    );
  }
  return { kind: 'http', ...options };
}

/** Opens the SDK transport a spec describes; an SDK `Transport` passes through. */
export function openTransport(spec: McpTransportSpec | Transport): Transport {
  if (!('kind' in spec)) return spec;
  if (spec.kind === 'stdio') {
    return new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      env: spec.env,
      cwd: spec.cwd,
      stderr: spec.stderr ?? 'inherit',
    });
  }
  const url = new URL(spec.url);
  return new StreamableHTTPClientTransport(url, {
    requestInit: spec.headers ? { headers: spec.headers } : undefined,
    ...(spec.auth ? { fetch: oauthFetch(spec.auth, url) } : {}),
  });
}
