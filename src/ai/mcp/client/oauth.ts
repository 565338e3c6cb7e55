/**
 * OAuth 2.1 for `mcpClient()`, as the MCP authorization spec describes, on the SDK's
 * OAuth machinery (`auth()`: protected-resource and authorization-server discovery, PKCE,
 * dynamic client registration, token refresh): a provider keeping its state in a
 * {@link TokenStore}, and a `fetch` that logs in on `401` and steps up on `403
 * insufficient_scope`, a bounded number of times. Decision 123.
 */
import {
  AuthorizationServerMismatchError,
  auth,
  ClientCredentialsProvider,
  extractWWWAuthenticateParams,
  type FetchLike,
  IssuerMismatchError,
  type OAuthClientProvider,
  PrivateKeyJwtProvider,
} from '@modelcontextprotocol/client';
import { checkOptionalType, typeError } from '../../../internal/option-type.ts';
import { McpAuthError } from './auth-error.ts';
import { AuthorizationServerCheck, bearerToken } from './authorization-server.ts';
import { issuerMismatch } from './issuer-mismatch.ts';
import { StoredProvider } from './oauth-provider.ts';
import type { TokenStore } from './token-store.ts';

/** Options of {@link oauth}. */
export interface OAuthOptions {
  /**
   * Shows the user the authorization URL (opens a browser) and resolves the URL the
   * authorization server redirected back to — its `code` and `iss` (RFC 9207, checked:
   * decision 215) — or just the code, which a server that advertises `iss` refuses.
   * Needed for the authorization-code grant; without it a login fails with an error
   * saying so.
   */
  authorize?: (authorizationUrl: URL) => Promise<string | URL>;
  /** Where the authorization server sends the user back (default `http://127.0.0.1:33418/callback`). */
  redirectUrl?: string;
  /** This client's name at dynamic client registration (default `fino`). */
  clientName?: string;
  /** A pre-registered client (no dynamic registration). */
  clientId?: string;
  clientSecret?: string;
  /**
   * An HTTPS URL of this client's metadata document (a URL-based client id): used
   * instead of dynamic registration when the authorization server supports it.
   */
  clientMetadataUrl?: string;
  /**
   * `'client_credentials'` for machine-to-machine access with `clientId` and either
   * `clientSecret` or `privateKey` (no user, no browser); default `'authorization_code'`
   * (with PKCE).
   */
  grant?: 'authorization_code' | 'client_credentials';
  /** A private key (PEM) to sign `private_key_jwt` client assertions, with `signingAlgorithm` (default `ES256`). */
  privateKey?: string;
  signingAlgorithm?: string;
  /** Where tokens and registrations are kept (default a file at `~/.fino/mcp-oauth.json`, mode 0600). */
  store?: TokenStore;
}

/** What {@link oauth} returns, for `mcpClient({ url, auth })` or `httpTransport({ url, auth })`. */
export interface McpOAuth {
  readonly kind: 'oauth';
  readonly options: OAuthOptions;
}

/** How many times one request may (re)authorize: a login, then one step-up. */
export const MAX_AUTHORIZATIONS = 2;

/**
 * OAuth 2.1 login for a remote MCP server.
 *
 * @example
 * ```ts
 * import { mcpClient, memoryTokenStore, oauth } from 'fino:ai/mcp';
 *
 * const client = mcpClient({
 *   url: 'https://mcp.example.com/mcp',
 *   auth: oauth({
 *     store: memoryTokenStore(),
 *     authorize: async (url) => {
 *       console.log(`Open ${url} and paste the address you land on:`);
 *       return process.argv[2] ?? '';
 *     },
 *   }),
 * });
 * console.log(typeof client.tools);
 * ```
 */
export function oauth(options: OAuthOptions = {}): McpOAuth {
  for (const name of [
    'redirectUrl',
    'clientName',
    'clientId',
    'clientSecret',
    'clientMetadataUrl',
    'privateKey',
    'signingAlgorithm',
  ] as const) {
    checkOptionalType(options[name], 'string', `oauth: ${name}`, typeError);
  }
  checkOptionalType(options.authorize, 'function', 'oauth: authorize', typeError);
  if (
    options.grant === 'client_credentials' &&
    (options.clientId === undefined ||
      (options.clientSecret === undefined && options.privateKey === undefined))
  ) {
    throw new TypeError(
      "oauth: grant 'client_credentials' needs clientId, and clientSecret or privateKey",
    );
  }
  return { kind: 'oauth', options };
}

/**
 * A `fetch` for one server that carries its bearer token and logs in when the server
 * asks. Requests that meet a stale token share one renewal: a single refresh (or login)
 * is in flight per client, and — when the store is shared and supports `exclusive` —
 * per token record across clients and processes, so a rotating refresh token is spent
 * once (decision 182).
 */
export function oauthFetch(spec: McpOAuth, serverUrl: URL, next: FetchLike = fetch): FetchLike {
  const check = new AuthorizationServerCheck(next, spec.options.grant !== 'client_credentials');
  const provider = providerFor(spec.options, serverUrl.href, check);
  const login = async (resourceMetadataUrl: URL | undefined, scope: string | undefined) => {
    const base = { serverUrl, resourceMetadataUrl, scope, fetchFn: check.fetch };
    // Every login discovers afresh; the state it saves binds its second leg (decision 215).
    await provider.invalidateCredentials?.('discovery');
    let result = await auth(provider, base);
    if (result === 'REDIRECT' && provider instanceof StoredProvider) {
      const { code, iss } = provider.takeResponse();
      result = await auth(provider, { ...base, authorizationCode: code, iss });
    }
    if (result !== 'AUTHORIZED') {
      throw new McpAuthError('LOGIN_REQUIRED', `mcpClient: could not log in to ${serverUrl.href}`);
    }
  };
  let renewing: Promise<void> | undefined;
  /** Renews the token `stale` (the one a request was refused with), once for all waiters. */
  const renew = (stale: string | undefined, challenge: WWWAuthenticateParams) => {
    renewing ??= exclusive(provider, async () => {
      const current = (await provider.tokens())?.access_token;
      if (current !== undefined && current !== stale) return; // renewed by another request
      await login(challenge.resourceMetadataUrl, challenge.scope).catch((error: unknown) => {
        throw loginError(serverUrl.href, error);
      });
    }).finally(() => {
      renewing = undefined;
    });
    return renewing;
  };
  return async (input, init) => {
    let sentWith: string | undefined;
    const send = async () => {
      const headers = new Headers(init?.headers);
      const tokens = await provider.tokens();
      sentWith = tokens && bearerToken(tokens, serverUrl.href);
      if (sentWith !== undefined) headers.set('Authorization', `Bearer ${sentWith}`);
      return next(input, { ...init, headers });
    };
    let response = await send();
    for (let attempt = 0; attempt < MAX_AUTHORIZATIONS && needsAuthorization(response); attempt++) {
      const challenge = extractWWWAuthenticateParams(response);
      await response.body?.cancel().catch(() => undefined);
      await renew(sentWith, challenge);
      response = await send();
    }
    return response;
  };
}

type WWWAuthenticateParams = ReturnType<typeof extractWWWAuthenticateParams>;

/** Runs `work` exclusively among the users of the provider's store, when it has one. */
function exclusive(provider: OAuthClientProvider, work: () => Promise<void>): Promise<void> {
  return provider instanceof StoredProvider ? provider.exclusive(work) : work();
}

/** How long a login failure's cause may be in its message. */
const MAX_CAUSE_CHARS = 300;

/** A login failure as an {@link McpAuthError} naming the server and, in one line, the cause. */
function loginError(server: string, error: unknown): McpAuthError {
  if (error instanceof McpAuthError) return error;
  if (IssuerMismatchError.isInstance(error) || AuthorizationServerMismatchError.isInstance(error)) {
    return issuerMismatch(server, error);
  }
  const issues = (error as { issues?: { path?: unknown[]; message?: string }[] })?.issues;
  const said = Array.isArray(issues)
    ? `its answer is malformed: ${issues
        .slice(0, 3)
        .map((issue) => `${(issue.path ?? []).join('.') || '(answer)'}: ${issue.message}`)
        .join('; ')}`
    : String((error as Error)?.message ?? error);
  return new McpAuthError(
    'LOGIN_FAILED',
    `mcpClient: could not log in to ${server}: ${said.replace(/\s+/g, ' ').slice(0, MAX_CAUSE_CHARS)}`,
    { cause: error },
  );
}

function providerFor(
  options: OAuthOptions,
  server: string,
  check: AuthorizationServerCheck,
): OAuthClientProvider {
  if (options.grant !== 'client_credentials') return new StoredProvider(options, server, check);
  const clientId = options.clientId as string;
  if (options.privateKey !== undefined) {
    return new PrivateKeyJwtProvider({
      clientId,
      privateKey: options.privateKey,
      algorithm: options.signingAlgorithm ?? 'ES256',
    });
  }
  return new ClientCredentialsProvider({ clientId, clientSecret: options.clientSecret as string });
}

function needsAuthorization(response: Response): boolean {
  if (response.status === 401) return true;
  return (
    response.status === 403 && extractWWWAuthenticateParams(response).error === 'insufficient_scope'
  );
}
