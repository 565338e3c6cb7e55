/**
 * Why `mcpClient()` could not connect, in one line naming the server and the cause,
 * with a stable `code` (decision 119).
 */
import type { Transport } from '@modelcontextprotocol/client';
import { McpAuthError } from './auth-error.ts';
import type { McpTransportSpec } from './transports.ts';

/**
 * How a connection failed:
 *
 * - `UNREACHABLE`: nothing answered — the address refuses connections, the host is
 *   unknown, or the server command cannot be started;
 * - `UNAUTHORIZED`: the server answered 401 or 403 (a missing or wrong token), or a
 *   login failed (an {@link McpAuthError} in the `cause` chain says why);
 * - `HANDSHAKE_FAILED`: something answered, but the MCP handshake failed (not an MCP
 *   endpoint, an incompatible server, a server process that exited).
 */
export type McpConnectionErrorCode = 'UNREACHABLE' | 'UNAUTHORIZED' | 'HANDSHAKE_FAILED';

/**
 * The error `mcpClient()`'s `connect()` and `tools()` reject with when the connection
 * fails. `cause` holds the SDK's error.
 *
 * @example
 * ```ts
 * import { httpTransport, McpConnectionError, mcpClient } from 'fino:ai/mcp';
 *
 * const client = mcpClient({ transport: httpTransport({ url: 'http://127.0.0.1:39999/mcp' }) });
 * try {
 *   await client.tools();
 * } catch (error) {
 *   if (error instanceof McpConnectionError) console.log(error.code, error.message);
 *   // when nothing listens there: UNREACHABLE mcpClient: could not connect to
 *   // http://127.0.0.1:39999/mcp: connect ECONNREFUSED 127.0.0.1:39999
 *   else throw error;
 * }
 * await client.close();
 * ```
 */
export class McpConnectionError extends Error {
  override name = 'McpConnectionError';
  readonly code: McpConnectionErrorCode;
  /** The server: its URL, or the command that starts it. */
  readonly target: string;

  constructor(code: McpConnectionErrorCode, target: string, message: string, cause: unknown) {
    super(message, { cause });
    this.code = code;
    this.target = target;
  }
}

/** The server a transport reaches, as a connection error names it. */
export function transportTarget(spec: McpTransportSpec | Transport): string {
  if (!('kind' in spec)) return 'the MCP server (a custom transport)';
  if (spec.kind === 'http') return String(spec.url);
  return `the server command "${[spec.command, ...(spec.args ?? [])].join(' ').slice(0, 200)}"`;
}

/** Error codes of a connection nothing answered on. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOENT',
  'EACCES',
]);

/** The longest cause message kept in the one line. */
const MAX_CAUSE_CHARS = 300;

/** The connection error for `thrown`, raised while connecting to `target`. */
export function connectionError(target: string, thrown: unknown): McpConnectionError {
  const chain: unknown[] = [];
  for (let at = thrown; at !== undefined && at !== null && chain.length < 8; ) {
    chain.push(at);
    at = (at as { cause?: unknown }).cause;
  }
  const deepest = chain[chain.length - 1] as { message?: unknown; code?: unknown } | undefined;
  const status = chain
    .map((e) => (e as { status?: unknown }).status)
    .find((s): s is number => typeof s === 'number');
  const code: McpConnectionErrorCode =
    status === 401 || status === 403 || chain.some((e) => e instanceof McpAuthError)
      ? 'UNAUTHORIZED'
      : chain.some((e) => UNREACHABLE_CODES.has(String((e as { code?: unknown }).code))) ||
          /fetch failed|bad port/.test(String(deepest?.message))
        ? 'UNREACHABLE'
        : 'HANDSHAKE_FAILED';
  const said = String(deepest?.message ?? thrown)
    .replace(/\s+/g, ' ')
    .slice(0, MAX_CAUSE_CHARS);
  const why =
    status !== undefined && !said.includes(String(status)) ? `HTTP ${status}: ${said}` : said;
  return new McpConnectionError(
    code,
    target,
    `mcpClient: could not connect to ${target}: ${why}`,
    thrown,
  );
}
