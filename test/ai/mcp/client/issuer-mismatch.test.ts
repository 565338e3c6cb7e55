/**
 * `mcpClient({ auth: oauth() })` against a real authorization server on 127.0.0.1 that
 * sends the right `iss`, a wrong one, or none (RFC 9207): the login succeeds with the
 * right one and prints no warning; a wrong one, or a missing one where the server
 * advertises `authorization_response_iss_parameter_supported`, is refused before the code
 * is exchanged.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mcpClient, memoryTokenStore, oauth } from '../../../../src/ai/mcp/index.ts';
import {
  type AuthorizationServerOptions,
  approve,
  startAuthorizationServer,
  startProtectedServer,
} from './fixtures/authorization-server.ts';

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const close of closing.splice(0).reverse()) await close();
});

/** Logs in to an MCP server behind an authorization server made with `options`. */
async function logIn(options: AuthorizationServerOptions, authorize = approve) {
  const as = await startAuthorizationServer(options);
  const server = await startProtectedServer(as);
  const client = mcpClient({
    url: server.url,
    auth: oauth({ store: memoryTokenStore(), authorize }),
  });
  closing.push(
    () => as.close(),
    () => server.close(),
    () => client.close(),
  );
  const outcome = await client.tools().then(
    (tools) => ({ tools: tools.map((t) => t.name), error: undefined }),
    (error: Error) => ({ tools: undefined, error }),
  );
  return { as, ...outcome, auth: authError(outcome.error) };
}

/** The `McpAuthError` in `error`'s causes. */
function authError(error: unknown) {
  let cause = error as (Error & { code?: string; cause?: unknown }) | undefined;
  while (cause !== undefined && cause.name !== 'McpAuthError') cause = cause.cause as typeof cause;
  return cause;
}

const advertised = { metadata: { authorization_response_iss_parameter_supported: true } };

/** Everything a login prints as a warning: console.warn/error and process warnings. */
function captureWarnings(): string[] {
  const seen: string[] = [];
  for (const method of ['warn', 'error'] as const) {
    vi.spyOn(console, method).mockImplementation((...args) => void seen.push(args.join(' ')));
  }
  const onWarning = (warning: Error) => void seen.push(warning.message);
  process.on('warning', onWarning);
  closing.push(async () => process.off('warning', onWarning));
  return seen;
}

describe('oauth() checks the iss of the authorization response (RFC 9207)', () => {
  for (const [label, options] of [
    ['the right iss from a server that advertises it', { ...advertised, iss: 'right' }],
    ['the right iss from a server that does not advertise it', { iss: 'right' }],
    ['no iss from a server that does not advertise it', { iss: 'none' }],
  ] as const) {
    it(`logs in with ${label}, printing no warning`, async () => {
      const warnings = captureWarnings();
      const { tools, error, as } = await logIn(options);
      expect(error).toBeUndefined();
      expect(tools).toEqual(['echo']);
      expect(as.counts.get('/token:authorization_code')).toBe(1);
      expect(warnings).toEqual([]);
    });
  }

  for (const [label, options] of [
    ['that advertises it', { ...advertised, iss: 'wrong' }],
    ['that does not advertise it', { iss: 'wrong' }],
  ] as const) {
    it(`refuses a wrong iss from a server ${label}, before the code is exchanged`, async () => {
      const { error, auth, as } = await logIn(options);
      expect(error).toBeDefined();
      expect(auth?.code).toBe('ISSUER_MISMATCH');
      expect(auth?.message).toContain(
        `the authorization response names another issuer than string "${as.url}"`,
      );
      expect(auth?.message).not.toContain('attacker.example'); // the callback's value is not repeated
      expect(as.counts.get('/token:authorization_code')).toBeUndefined();
    });
  }

  it('refuses a missing iss from a server that advertises it', async () => {
    const { auth, as } = await logIn({ ...advertised, iss: 'none' });
    expect(auth?.code).toBe('ISSUER_MISMATCH');
    expect(auth?.message).toContain('the authorization response carries no iss, though');
    expect(as.counts.get('/token:authorization_code')).toBeUndefined();
  });

  it('refuses a bare code (no iss) when the server advertises iss', async () => {
    const codeOnly = async (url: URL) => new URL(await approve(url)).searchParams.get('code') ?? '';
    const { auth } = await logIn({ ...advertised, iss: 'right' }, codeOnly);
    expect(auth?.code).toBe('ISSUER_MISMATCH');
  });
});
