/**
 * OAuth 2.1 on `mcpServer()`, as an MCP resource server: protected-resource metadata
 * (RFC 9728) at `/.well-known/oauth-protected-resource<path>`, bearer tokens checked by
 * the application's `verify` through the SDK's `verifyBearerToken` (401/403 challenges
 * that name the metadata and the scopes), the token's audience against this server's
 * resource, `verify` bounded in time, and per-tool scopes. Decisions 125, 186.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  specTypeSchemas,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import { describeValue } from '../../../../internal/describe-value.ts';
import { checkDuration } from '../../../../internal/duration.ts';
import { audienceMismatch } from './token-audience.ts';

/** What `verify` says about a token it accepts. */
export interface VerifiedToken {
  /** Who the token was issued to. */
  clientId: string;
  scopes: string[];
  /** When it expires, in seconds since the epoch. */
  expiresAt?: number;
  /**
   * Whom the token was issued for: its `aud` (a JWT claim, or an introspection answer's
   * field), or the RFC 8707 `resource` it was requested for. When given, it must name
   * this server's `resource`, or the request is refused (`401 invalid_token`).
   */
  audience?: string | readonly string[];
}

/** What `verify` is told about the request it checks a token for. */
export interface VerifyContext {
  /** This server's `resource` URL: a token whose audience does not name it must be refused. */
  resource: string;
}

/** Options of `mcpServer({ auth })`. */
export interface McpServerAuth {
  /**
   * Checks a bearer token (e.g. introspection, or a JWT's signature); `undefined` rejects
   * it. It must check that the token was issued for this server — its audience names
   * `context.resource` — and report the audience in `audience`, which fino checks too.
   */
  verify(
    token: string,
    context: VerifyContext,
  ): Promise<VerifiedToken | undefined> | VerifiedToken | undefined;
  /**
   * How long `verify` may take before the request is answered `503` (default 10 s): a
   * verify that never settles must not hold requests forever.
   */
  verifyTimeoutMs?: number;
  /** This MCP endpoint's URL as clients reach it, e.g. `https://mcp.example.com/mcp`. */
  resource: string;
  /** The authorization servers that issue tokens for it. */
  authorizationServers: string[];
  /**
   * Scopes every request needs. `scopes_supported` lists them and every served tool's
   * own `scopes` (the tool option), which `tools/call` checks.
   */
  scopes?: string[];
}

/** The checked auth options and what serving them needs. */
export interface ServerAuth {
  options: McpServerAuth;
  metadataPath: string;
  /** The metadata as published now (`scopes_supported` follows the served tools). */
  metadata(): Record<string, unknown>;
  /** Answers a metadata request or checks the bearer token; `false` when it answered. */
  handle(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse): Promise<boolean>;
}

/**
 * Checks `options` and builds what serves them; a `TypeError` names a bad field.
 * `toolScopes` gives the scopes of the tools served at the moment.
 */
export function serverAuth(
  options: McpServerAuth,
  toolScopes: () => Iterable<readonly string[]>,
): ServerAuth {
  if (typeof options?.verify !== 'function') {
    throw new TypeError(
      `mcpServer: auth.verify: expected a function, received ${describeValue(options?.verify)}`,
    );
  }
  let resource: URL;
  try {
    resource = new URL(options.resource);
  } catch {
    throw new TypeError(
      `mcpServer: auth.resource: expected the endpoint's absolute URL, received ${describeValue(options.resource)}`,
    );
  }
  if (!Array.isArray(options.authorizationServers) || options.authorizationServers.length === 0) {
    throw new TypeError(
      `mcpServer: auth.authorizationServers: expected a non-empty array of URLs, received ${describeValue(options.authorizationServers)}`,
    );
  }
  const base: Record<string, unknown> = {
    resource: resource.href,
    authorization_servers: options.authorizationServers,
    bearer_methods_supported: ['header'],
    ...(options.scopes?.length ? { scopes_supported: options.scopes } : {}),
  };
  // Tools' scopes are checked by `tool()`, so the base decides whether the metadata is valid.
  const metadata = (): Record<string, unknown> => {
    const supported = [...new Set([...(options.scopes ?? []), ...[...toolScopes()].flat()])];
    return supported.length > 0 ? { ...base, scopes_supported: supported } : base;
  };
  const checked = specTypeSchemas.OAuthProtectedResourceMetadata['~standard'].validate(base);
  if (checked instanceof Promise || checked.issues !== undefined) {
    throw new TypeError(
      `mcpServer: auth: the protected-resource metadata would be invalid: ${JSON.stringify(base)}`,
    );
  }
  const metadataUrl = getOAuthProtectedResourceMetadataUrl(resource);
  const metadataPath = new URL(metadataUrl).pathname;
  const timeoutMs =
    checkDuration('mcpServer: auth.verifyTimeoutMs', options.verifyTimeoutMs) ??
    DEFAULT_VERIFY_TIMEOUT_MS;
  const context: VerifyContext = { resource: resource.href };
  const verifier = {
    verifyAccessToken: async (token: string): Promise<AuthInfo> => {
      const verified = await withinTimeout(() => options.verify(token, context), timeoutMs);
      if (verified === undefined)
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'Invalid token');
      const mismatch = audienceMismatch(verified.audience, resource.href);
      if (mismatch !== undefined) throw new OAuthError(OAuthErrorCode.InvalidToken, mismatch);
      return {
        token,
        clientId: verified.clientId,
        scopes: verified.scopes,
        // The SDK's check wants an expiry; `verify` runs on every request, so a token it
        // gave none for is taken as valid for this request only.
        expiresAt: verified.expiresAt ?? Math.floor(Date.now() / 1000) + 60,
      };
    },
  };
  const bearer = {
    verifier,
    requiredScopes: options.scopes ?? [],
    resourceMetadataUrl: metadataUrl,
  };
  return {
    options,
    metadataPath,
    metadata,
    async handle(req, res) {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (path === metadataPath || path === '/.well-known/oauth-protected-resource') {
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Access-Control-Allow-Origin': '*',
        });
        res.end(JSON.stringify(metadata()));
        return false;
      }
      try {
        req.auth = await verifyBearerToken(req.headers.authorization, bearer);
        return true;
      } catch (error) {
        if (error instanceof VerifyTimeout) {
          res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' });
          res.end(JSON.stringify(error.body()));
          return false;
        }
        const challenge = bearerAuthChallengeResponse(error, bearer);
        res.writeHead(challenge.status, Object.fromEntries(challenge.headers));
        res.end(await challenge.text());
        return false;
      }
    },
  };
}

/** How long `verify` may take by default: 10 s. */
export const DEFAULT_VERIFY_TIMEOUT_MS = 10_000;

/** `verify` took longer than its timeout: the token is neither accepted nor refused. */
class VerifyTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the access token could not be checked: verify did not answer within ${timeoutMs} ms`);
  }

  body(): Record<string, string> {
    return { error: 'temporarily_unavailable', error_description: `${this.message}; retry later` };
  }
}

/** What `verify` answers, or a {@link VerifyTimeout} once `timeoutMs` have passed. */
async function withinTimeout<T>(verify: () => T | Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new VerifyTimeout(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(verify), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The scopes a tool `needs` that `authInfo` lacks (none without auth). */
export function missingScopes(
  auth: ServerAuth | undefined,
  needs: readonly string[],
  authInfo: AuthInfo | undefined,
): string[] {
  if (auth === undefined || needs.length === 0) return [];
  const held = new Set(authInfo?.scopes ?? []);
  return needs.filter((scope) => !held.has(scope));
}
