/**
 * The SDK's OAuth client provider for the authorization-code grant, its state — tokens,
 * the registered client, the PKCE verifier, the login's discovery state — in a
 * {@link TokenStore} (decision 123). A registered client whose secret has expired is
 * registered again. The authorization response keeps its `iss` for the SDK to check
 * (decision 215).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { McpAuthError } from './auth-error.ts';
import type { AuthorizationServerCheck } from './authorization-server.ts';
import { checkedDiscoveryState } from './discovery-state.ts';
import { fileTokenStore } from './file-token-store.ts';
import type { OAuthOptions } from './oauth.ts';
import type { OAuthRecord, TokenStore } from './token-store.ts';

/** What the authorization server sent the user back with: the code, and its issuer (RFC 9207). */
export interface AuthorizationResponse {
  code: string;
  iss?: string;
}

/** The SDK's OAuth client provider, its state in a {@link TokenStore}. */
export class StoredProvider implements OAuthClientProvider {
  readonly #options: OAuthOptions;
  readonly #server: string;
  readonly #store: TokenStore;
  readonly #check: AuthorizationServerCheck;
  #record: OAuthRecord | undefined;
  #response: AuthorizationResponse | undefined;

  constructor(options: OAuthOptions, server: string, check: AuthorizationServerCheck) {
    this.#options = options;
    this.#server = server;
    this.#store = options.store ?? fileTokenStore(join(homedir(), '.fino', 'mcp-oauth.json'));
    this.#check = check;
  }

  /**
   * Runs `work` (a renewal of this server's tokens) exclusively among the store's users,
   * when the store can, on the record as the store holds it now.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const store = this.#store;
    if (store.exclusive === undefined) return work();
    return store.exclusive(this.#server, () => {
      this.#record = undefined; // another client may have renewed the tokens meanwhile
      return work();
    });
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

  async clientInformation(
    context?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    if (this.#options.clientId !== undefined) {
      // Pre-registered for this server: bound to the authorization server it names.
      return {
        client_id: this.#options.clientId,
        client_secret: this.#options.clientSecret,
        issuer: context?.issuer,
      } as StoredOAuthClientInformation;
    }
    const client = (await this.#load()).client as StoredOAuthClientInformation | undefined;
    // An expired secret cannot authenticate: returning none makes the SDK register again.
    const expiresAt = client?.client_secret_expires_at;
    if (typeof expiresAt === 'number' && expiresAt > 0 && expiresAt * 1000 <= Date.now()) {
      return undefined;
    }
    return client;
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
    this.#check.checkAuthorizationUrl(authorizationUrl);
    const authorize = this.#options.authorize;
    if (authorize === undefined) {
      throw new McpAuthError(
        'LOGIN_REQUIRED',
        `mcpClient: ${this.#server} needs a login: give oauth({ authorize(url) }) a way to show ${authorizationUrl.origin} to the user`,
      );
    }
    this.#response = authorizationResponse(String(await authorize(authorizationUrl)), this.#server);
  }

  /** The code (and issuer) of the authorization that just finished. */
  takeResponse(): AuthorizationResponse {
    const response = this.#response;
    this.#response = undefined;
    if (response === undefined)
      throw new McpAuthError('LOGIN_REQUIRED', 'mcpClient: no authorization code to exchange');
    return response;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.#save({ discovery: state });
  }

  /**
   * The discovery state as the store holds it now (read again: the user may have spent
   * minutes at the login page), refused unless it passes the checks fresh metadata passes.
   */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    this.#record = undefined;
    const stored = (await this.#load()).discovery;
    return stored === undefined
      ? undefined
      : checkedDiscoveryState(stored, this.#server, this.#check);
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    await this.#save({ verifier });
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.#load()).verifier;
    if (typeof verifier !== 'string')
      throw new McpAuthError('LOGIN_REQUIRED', 'mcpClient: no PKCE verifier saved for this login');
    return verifier;
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    if (scope === 'all')
      await this.#save({
        tokens: undefined,
        client: undefined,
        verifier: undefined,
        discovery: undefined,
      });
    if (scope === 'tokens') await this.#save({ tokens: undefined });
    if (scope === 'client') await this.#save({ client: undefined });
    if (scope === 'verifier') await this.#save({ verifier: undefined });
    if (scope === 'discovery') await this.#save({ discovery: undefined });
  }
}

/**
 * The authorization response in `answer` — the URL the user came back to, or just its
 * code (then without `iss`, which a server advertising it makes the SDK refuse).
 */
function authorizationResponse(answer: string, server: string): AuthorizationResponse {
  const params = URL.canParse(answer) ? new URL(answer).searchParams : undefined;
  const code = params ? params.get('code') : answer;
  if (!code)
    throw new McpAuthError(
      'LOGIN_REQUIRED',
      `mcpClient: the authorization for ${server} returned no code`,
    );
  const iss = params?.get('iss') ?? undefined;
  return iss === undefined ? { code } : { code, iss };
}
