/**
 * What `mcpClient()` requires of an authorization server before it logs in there, in one
 * place: every endpoint it sends the user or a credential to (authorization,
 * registration, token) is `https:` or on a loopback host, and — for the
 * authorization-code grant — its metadata lists PKCE's `S256`, as the MCP authorization
 * spec makes clients check (decision 183). And a token it is given must be a Bearer token.
 */
import type { FetchLike, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { describeValue } from '../../../internal/describe-value.ts';
import { McpAuthError } from './auth-error.ts';

/** Hosts exempt from the `https:` rule, for local development (RFC 8252 §7.3). */
function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(hostname) ||
    hostname === '[::1]'
  );
}

/** Throws `INSECURE_ENDPOINT` unless `url` is `https:` or on a loopback host. */
export function requireSecureEndpoint(url: string | URL, role: string): void {
  const parsed = new URL(url);
  if (parsed.protocol === 'https:' || isLoopbackHost(parsed.hostname)) return;
  throw new McpAuthError(
    'INSECURE_ENDPOINT',
    `mcpClient: refusing the authorization server's ${role} ${parsed.origin}${parsed.pathname}: it is not https (only loopback hosts may use http)`,
  );
}

/** The endpoints of authorization-server metadata that must be secure, by their role. */
const ENDPOINTS = {
  authorization_endpoint: 'authorization endpoint',
  token_endpoint: 'token endpoint',
  registration_endpoint: 'registration endpoint',
} as const;

/**
 * Checks the authorization-server metadata and the requests of one client's logins: wraps
 * the `fetch` the SDK's `auth()` uses, and checks the authorization URL before the user
 * is sent there.
 */
export class AuthorizationServerCheck {
  readonly #next: FetchLike;
  readonly #needsPkce: boolean;

  /** `needsPkce`: the login is an authorization-code grant, which PKCE protects. */
  constructor(next: FetchLike, needsPkce: boolean) {
    this.#next = next;
    this.#needsPkce = needsPkce;
  }

  /** The `fetch` to give `auth()`: checks metadata it reads and where it posts. */
  readonly fetch: FetchLike = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    if (method.toUpperCase() !== 'GET') requireSecureEndpoint(url, 'endpoint');
    const response = await this.#next(input, init);
    if (response.ok && isMetadataPath(url.pathname)) {
      const metadata: unknown = await response
        .clone()
        .json()
        .catch(() => undefined);
      if (typeof metadata === 'object' && metadata !== null) {
        this.checkMetadata(metadata as Record<string, unknown>, url);
      }
    }
    return response;
  };

  /**
   * Throws unless the user may be sent to `authorizationUrl` — also the default
   * `/authorize` of a server without metadata (the 2025-03-26 fallback, whose spec made
   * PKCE mandatory for servers).
   */
  checkAuthorizationUrl(authorizationUrl: URL): void {
    requireSecureEndpoint(authorizationUrl, 'authorization endpoint');
  }

  /** Throws unless the authorization-server `metadata` (read from `from`) meets the rules. */
  checkMetadata(metadata: Record<string, unknown>, from: URL): void {
    for (const [field, role] of Object.entries(ENDPOINTS)) {
      if (typeof metadata[field] === 'string') requireSecureEndpoint(metadata[field], role);
    }
    const methods = metadata.code_challenge_methods_supported;
    if (this.#needsPkce && !(Array.isArray(methods) && methods.includes('S256'))) {
      throw new McpAuthError(
        'PKCE_UNSUPPORTED',
        `mcpClient: the authorization server at ${from.origin} does not support PKCE with S256 (code_challenge_methods_supported: ${describeValue(methods)}); the MCP authorization spec requires the client to refuse it`,
      );
    }
  }
}

/** Authorization-server metadata paths (RFC 8414, OpenID Connect Discovery). */
function isMetadataPath(pathname: string): boolean {
  return (
    pathname.startsWith('/.well-known/oauth-authorization-server') ||
    pathname.startsWith('/.well-known/openid-configuration') ||
    pathname.endsWith('/.well-known/openid-configuration')
  );
}

/** The access token to send as `Authorization: Bearer`; refuses any other token type. */
export function bearerToken(tokens: StoredOAuthTokens, server: string): string {
  if (String(tokens.token_type).toLowerCase() !== 'bearer') {
    throw new McpAuthError(
      'UNSUPPORTED_TOKEN_TYPE',
      `mcpClient: the authorization server for ${server} issued a token of type ${describeValue(tokens.token_type)}; only Bearer tokens are supported`,
    );
  }
  return tokens.access_token;
}
