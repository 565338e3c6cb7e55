/**
 * Why an OAuth login for `mcpClient()` failed, in one line naming the server and the
 * problem, with a stable `code` (decision 183).
 */
/**
 * What went wrong:
 *
 * - `LOGIN_REQUIRED`: the server needs a login and none could be made (no `authorize`,
 *   or it returned no code);
 * - `PKCE_UNSUPPORTED`: the authorization server's metadata does not list `S256` in
 *   `code_challenge_methods_supported`, so the client refuses it;
 * - `INSECURE_ENDPOINT`: an authorization, registration or token endpoint is plain
 *   `http:` on a host that is not loopback;
 * - `UNSUPPORTED_TOKEN_TYPE`: the token is not a Bearer token (e.g. DPoP);
 * - `ISSUER_MISMATCH`: the authorization response names another issuer (`iss`, RFC
 *   9207), or none although the server advertises it, or the login's two legs reached
 *   different authorization servers — a mix-up, refused before the code is spent;
 * - `INVALID_DISCOVERY_STATE`: the discovery state saved for the login's second leg is
 *   malformed (a tampered store), so it is not used;
 * - `LOGIN_FAILED`: the authorization server refused or answered something malformed.
 */
export type McpAuthErrorCode =
  | 'LOGIN_REQUIRED'
  | 'PKCE_UNSUPPORTED'
  | 'INSECURE_ENDPOINT'
  | 'UNSUPPORTED_TOKEN_TYPE'
  | 'ISSUER_MISMATCH'
  | 'INVALID_DISCOVERY_STATE'
  | 'LOGIN_FAILED';

/**
 * The error a login for `mcpClient({ auth: oauth() })` fails with (an SDK
 * `UnauthorizedError`); a connection failure wraps it as its `cause`.
 *
 * @example
 * ```ts
 * import { McpAuthError } from 'fino:ai/mcp';
 *
 * const error = new McpAuthError('PKCE_UNSUPPORTED', 'mcpClient: https://as.example.com does not support PKCE (S256)');
 * console.log(error.code, error instanceof Error); // PKCE_UNSUPPORTED true
 * ```
 */
export class McpAuthError extends Error {
  override name = 'McpAuthError';
  readonly code: McpAuthErrorCode;

  constructor(code: McpAuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
