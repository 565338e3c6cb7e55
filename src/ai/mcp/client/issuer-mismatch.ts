/**
 * The SDK's issuer checks, as fino's login error: an authorization response whose `iss`
 * (RFC 9207) is wrong, or missing where the authorization server advertises it; metadata
 * naming another issuer than the address it came from (RFC 8414 §3.3); a login whose
 * second leg reached another authorization server than its first (SEP-2352). Each is an
 * {@link McpAuthError} `ISSUER_MISMATCH` (decision 215). The `iss` a callback carried
 * may come from an attacker (a mix-up), so the message never repeats it.
 */
import type {
  AuthorizationServerMismatchError,
  IssuerMismatchError,
} from '@modelcontextprotocol/client';
import { describeValue } from '../../../internal/describe-value.ts';
import { McpAuthError } from './auth-error.ts';

/** `error` — an SDK `IssuerMismatchError` or `AuthorizationServerMismatchError` — as an `ISSUER_MISMATCH`. */
export function issuerMismatch(
  server: string,
  error: IssuerMismatchError | AuthorizationServerMismatchError,
): McpAuthError {
  return new McpAuthError(
    'ISSUER_MISMATCH',
    `mcpClient: refusing the login to ${server}: ${what(error)}`,
    { cause: error },
  );
}

function what(error: IssuerMismatchError | AuthorizationServerMismatchError): string {
  if (!('kind' in error)) {
    return `its authorization server changed during the login (from ${describeValue(error.recordedIssuer)} to ${describeValue(error.currentIssuer)}); the code is not exchanged`;
  }
  const expected = describeValue(error.expected);
  if (error.kind === 'metadata') {
    return `the authorization server metadata names the issuer ${describeValue(error.received)}, not ${expected} where it was fetched (RFC 8414)`;
  }
  if (error.received === undefined) {
    return `the authorization response carries no iss, though ${expected} advertises authorization_response_iss_parameter_supported (RFC 9207); give oauth({ authorize }) the whole URL the user came back to`;
  }
  return `the authorization response names another issuer than ${expected} (RFC 9207: a possible mix-up attack); the code is not exchanged`;
}
