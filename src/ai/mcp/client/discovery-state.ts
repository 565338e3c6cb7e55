/**
 * The discovery state a login keeps between its two legs (the SDK's
 * `saveDiscoveryState()/discoveryState()`: which authorization server the user was sent
 * to, and its metadata), checked when it is read back from the token store: a stored
 * record is data anyone with the file could have edited, so it must be well formed and
 * pass the same rules as freshly fetched metadata (decisions 183 and 215).
 */
import { type OAuthDiscoveryState, specTypeSchemas } from '@modelcontextprotocol/client';
import { describeValue } from '../../../internal/describe-value.ts';
import { McpAuthError } from './auth-error.ts';
import { type AuthorizationServerCheck, requireSecureEndpoint } from './authorization-server.ts';

/**
 * `stored` as the SDK's discovery state, once it is well formed and its authorization
 * server passes `check`; throws an {@link McpAuthError} otherwise (never falls back to
 * trusting it).
 */
export function checkedDiscoveryState(
  stored: unknown,
  server: string,
  check: AuthorizationServerCheck,
): OAuthDiscoveryState {
  const refuse = (what: string) =>
    new McpAuthError(
      'INVALID_DISCOVERY_STATE',
      `mcpClient: refusing the discovery state saved for ${server}: ${what}; log in again`,
    );
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) {
    throw refuse(`expected an object, received ${describeValue(stored)}`);
  }
  const state = stored as Record<string, unknown>;
  const asUrl = state.authorizationServerUrl;
  if (typeof asUrl !== 'string' || !URL.canParse(asUrl)) {
    throw refuse(`authorizationServerUrl: expected a URL, received ${describeValue(asUrl)}`);
  }
  requireSecureEndpoint(asUrl, 'address');
  const metadata = state.authorizationServerMetadata;
  if (metadata !== undefined) {
    if (
      !matches(metadata, 'OAuthMetadata') &&
      !matches(metadata, 'OpenIdProviderDiscoveryMetadata')
    ) {
      throw refuse('authorizationServerMetadata is not authorization-server metadata');
    }
    const issuer = (metadata as { issuer: string }).issuer;
    if (!(issuer === asUrl || (asUrl.endsWith('/') && issuer === asUrl.slice(0, -1)))) {
      throw refuse(`its metadata's issuer ${describeValue(issuer)} is not ${asUrl}`);
    }
    check.checkMetadata(metadata as Record<string, unknown>, new URL(asUrl));
  }
  const resource = state.resourceMetadata;
  if (resource !== undefined && !matches(resource, 'OAuthProtectedResourceMetadata')) {
    throw refuse('resourceMetadata is not protected-resource metadata');
  }
  const resourceUrl = state.resourceMetadataUrl;
  if (
    resourceUrl !== undefined &&
    (typeof resourceUrl !== 'string' || !URL.canParse(resourceUrl))
  ) {
    throw refuse(`resourceMetadataUrl: expected a URL, received ${describeValue(resourceUrl)}`);
  }
  return state as unknown as OAuthDiscoveryState;
}

type MetadataSchema =
  | 'OAuthMetadata'
  | 'OpenIdProviderDiscoveryMetadata'
  | 'OAuthProtectedResourceMetadata';

/** Whether `value` passes the SDK's own schema `name`. */
function matches(value: unknown, name: MetadataSchema): boolean {
  const checked = specTypeSchemas[name]['~standard'].validate(value);
  return !(checked instanceof Promise) && checked.issues === undefined;
}
