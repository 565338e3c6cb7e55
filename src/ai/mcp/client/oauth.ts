/**
 * OAuth 2.1 for `mcpClient()`, as the MCP authorization spec describes, on the SDK's
 * OAuth machinery (`auth()`: protected-resource and authorization-server discovery, PKCE,
 * dynamic client registration, token refresh): a provider keeping its state in a
 * {@link TokenStore}, and a `fetch` that logs in on `401` and steps up on `403
 * insufficient_scope`, a bounded number of times. Decision 123.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  auth,
  ClientCredentialsProvider,
  extractWWWAuthenticateParams,
  type FetchLike,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  PrivateKeyJwtProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { checkOptionalType, typeError } from '../../../internal/option-type.ts';
import { fileTokenStore, type OAuthRecord, type TokenStore } from './token-store.ts';

/** Options of {@link oauth}. */
export interface OAuthOptions {
  /**
   * Shows the user the authorization URL (opens a browser) and resolves the URL the
   * authorization server redirected back to, or just its `code`. Needed for the
   * authorization-code grant; without it a login fails with an error saying so.
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

/** A `fetch` for one server that carries its bearer token and logs in when the server asks. */
export function oauthFetch(spec: McpOAuth, serverUrl: URL, next: FetchLike = fetch): FetchLike {
  const provider = providerFor(spec.options, serverUrl.href);
  const authorizeOnce = async (resourceMetadataUrl: URL | undefined, scope: string | undefined) => {
    const base = { serverUrl, resourceMetadataUrl, scope, fetchFn: next };
    let result = await auth(provider, base);
    if (result === 'REDIRECT' && provider instanceof StoredProvider) {
      result = await auth(provider, { ...base, authorizationCode: provider.takeCode() });
    }
    if (result !== 'AUTHORIZED')
      throw new UnauthorizedError(`mcpClient: could not log in to ${serverUrl.href}`);
  };
  return async (input, init) => {
    const send = async () => {
      const headers = new Headers(init?.headers);
      const tokens = await provider.tokens();
      if (tokens) headers.set('Authorization', `Bearer ${tokens.access_token}`);
      return next(input, { ...init, headers });
    };
    let response = await send();
    for (let attempt = 0; attempt < MAX_AUTHORIZATIONS && needsAuthorization(response); attempt++) {
      const challenge = extractWWWAuthenticateParams(response);
      await response.body?.cancel().catch(() => undefined);
      await authorizeOnce(challenge.resourceMetadataUrl, challenge.scope);
      response = await send();
    }
    return response;
  };
}

function providerFor(options: OAuthOptions, server: string): OAuthClientProvider {
  if (options.grant !== 'client_credentials') return new StoredProvider(options, server);
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

/** The SDK's OAuth client provider, its state in a {@link TokenStore}. */
class StoredProvider implements OAuthClientProvider {
  readonly #options: OAuthOptions;
  readonly #server: string;
  readonly #store: TokenStore;
  #record: OAuthRecord | undefined;
  #code: string | undefined;

  constructor(options: OAuthOptions, server: string) {
    this.#options = options;
    this.#server = server;
    this.#store = options.store ?? fileTokenStore(join(homedir(), '.fino', 'mcp-oauth.json'));
  }

  get redirectUrl(): string {
    return this.#options.redirectUrl ?? 'http://127.0.0.1:33418/callback';
  }

  get clientMetadataUrl(): string | undefined {
    return this.#options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.#options.clientName ?? 'fino',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method:
        this.#options.clientSecret === undefined ? 'none' : 'client_secret_basic',
    };
  }

  async #load(): Promise<OAuthRecord> {
    this.#record ??= (await this.#store.load(this.#server)) ?? {};
    return this.#record;
  }

  async #save(changes: OAuthRecord): Promise<void> {
    this.#record = { ...(await this.#load()), ...changes };
    await this.#store.save(this.#server, this.#record);
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    if (this.#options.clientId !== undefined) {
      return {
        client_id: this.#options.clientId,
        client_secret: this.#options.clientSecret,
      } as StoredOAuthClientInformation;
    }
    return (await this.#load()).client as StoredOAuthClientInformation | undefined;
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    await this.#save({ client });
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.#load()).tokens as StoredOAuthTokens | undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.#save({ tokens });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const authorize = this.#options.authorize;
    if (authorize === undefined) {
      throw new UnauthorizedError(
        `mcpClient: ${this.#server} needs a login: give oauth({ authorize(url) }) a way to show ${authorizationUrl.origin} to the user`,
      );
    }
    const answer = String(await authorize(authorizationUrl));
    const code = URL.canParse(answer) ? new URL(answer).searchParams.get('code') : answer;
    if (!code)
      throw new UnauthorizedError(
        `mcpClient: the authorization for ${this.#server} returned no code`,
      );
    this.#code = code;
  }

  /** The code of the authorization that just finished. */
  takeCode(): string {
    const code = this.#code;
    this.#code = undefined;
    if (code === undefined)
      throw new UnauthorizedError('mcpClient: no authorization code to exchange');
    return code;
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    await this.#save({ verifier });
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.#load()).verifier;
    if (typeof verifier !== 'string')
      throw new UnauthorizedError('mcpClient: no PKCE verifier saved for this login');
    return verifier;
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    if (scope === 'all')
      await this.#save({ tokens: undefined, client: undefined, verifier: undefined });
    if (scope === 'tokens') await this.#save({ tokens: undefined });
    if (scope === 'client') await this.#save({ client: undefined });
    if (scope === 'verifier') await this.#save({ verifier: undefined });
  }
}
