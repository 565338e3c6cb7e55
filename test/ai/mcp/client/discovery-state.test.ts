/**
 * The discovery state a login saves between its legs, in a real token file: the SDK's
 * callback-leg binding reads it back, and a file edited in between (an endpoint made
 * plain http, PKCE dropped, the issuer changed, garbage) is refused before the code is
 * exchanged. A state left from an earlier login is never read: each login discovers afresh.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthorizationServerCheck } from '../../../../src/ai/mcp/client/authorization-server.ts';
import { checkedDiscoveryState } from '../../../../src/ai/mcp/client/discovery-state.ts';
import { fileTokenStore, mcpClient, oauth } from '../../../../src/ai/mcp/index.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';
import {
  approve,
  startAuthorizationServer,
  startProtectedServer,
  type TestAuthorizationServer,
} from './fixtures/authorization-server.ts';

const dir = tempDir('discovery-state');
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

type Discovery = { authorizationServerMetadata: Record<string, unknown> } & Record<string, unknown>;

/** Logs in with a token file that `edit` changes while the user is at the login page. */
async function logInEditing(edit: (discovery: Discovery) => unknown, before?: Discovery) {
  const as: TestAuthorizationServer = await startAuthorizationServer({ iss: 'right' });
  const server = await startProtectedServer(as);
  const path = join(dir, `tokens-${Math.random().toString(36).slice(2)}.json`);
  if (before) writeFileSync(path, JSON.stringify({ [server.url]: { discovery: before } }));
  const client = mcpClient({
    url: server.url,
    auth: oauth({
      store: fileTokenStore(path),
      authorize: async (url) => {
        const all = JSON.parse(readFileSync(path, 'utf8'));
        all[server.url].discovery = edit(all[server.url].discovery);
        writeFileSync(path, JSON.stringify(all));
        return approve(url);
      },
    }),
  });
  closing.push(
    () => as.close(),
    () => server.close(),
    () => client.close(),
  );
  const error = await client.tools().then(
    () => undefined,
    (thrown: Error) => thrown,
  );
  let auth = error as (Error & { code?: string; cause?: unknown }) | undefined;
  while (auth !== undefined && auth.name !== 'McpAuthError') auth = auth.cause as typeof auth;
  return { as, error, auth, saved: JSON.parse(readFileSync(path, 'utf8'))[server.url] };
}

describe("the login's saved discovery state", () => {
  it('is saved with the login and read back unchanged: the login succeeds', async () => {
    const { error, saved, as } = await logInEditing((discovery) => discovery);
    expect(error).toBeUndefined();
    expect(saved.discovery.authorizationServerMetadata.issuer).toBe(as.url);
  });

  for (const [label, edit, code, says] of [
    [
      'a plain-http token endpoint',
      (d: Discovery) => ({
        ...d,
        authorizationServerMetadata: {
          ...d.authorizationServerMetadata,
          token_endpoint: 'http://attacker.example/token',
        },
      }),
      'INSECURE_ENDPOINT',
      'http://attacker.example/token: it is not https',
    ],
    [
      'PKCE S256 dropped',
      (d: Discovery) => ({
        ...d,
        authorizationServerMetadata: {
          ...d.authorizationServerMetadata,
          code_challenge_methods_supported: ['plain'],
        },
      }),
      'PKCE_UNSUPPORTED',
      'does not support PKCE with S256',
    ],
    [
      'another issuer',
      (d: Discovery) => ({
        ...d,
        authorizationServerMetadata: {
          ...d.authorizationServerMetadata,
          issuer: 'https://attacker.example',
        },
      }),
      'INVALID_DISCOVERY_STATE',
      `its metadata's issuer string "https://attacker.example" is not`,
    ],
    ['garbage', () => 'garbage', 'INVALID_DISCOVERY_STATE', 'expected an object, received string'],
    [
      'metadata that is not metadata',
      (d: Discovery) => ({ ...d, authorizationServerMetadata: { issuer: 7 } }),
      'INVALID_DISCOVERY_STATE',
      'authorizationServerMetadata is not authorization-server metadata',
    ],
  ] as const) {
    it(`is refused when edited during the login: ${label}`, async () => {
      const { auth, as } = await logInEditing(edit);
      expect(auth?.code).toBe(code);
      expect(auth?.message).toContain(says);
      expect(as.counts.get('/token:authorization_code')).toBeUndefined();
    });
  }

  it('left from an earlier login (even a bad one) is not read: the login discovers afresh', async () => {
    const { error } = await logInEditing((discovery) => discovery, {
      authorizationServerUrl: 'http://attacker.example',
    } as never);
    expect(error).toBeUndefined();
  });
});

describe('checkedDiscoveryState', () => {
  const check = new AuthorizationServerCheck(fetch, true);
  const server = 'https://mcp.example.com/mcp';

  it('refuses an authorization server address that is not https', () => {
    expect(() =>
      checkedDiscoveryState({ authorizationServerUrl: 'http://as.example.com' }, server, check),
    ).toThrow("refusing the authorization server's address http://as.example.com/");
  });

  it('refuses malformed resource metadata and a resourceMetadataUrl that is no URL', () => {
    const base = { authorizationServerUrl: 'https://as.example.com' };
    expect(() =>
      checkedDiscoveryState({ ...base, resourceMetadata: { resource: 1 } }, server, check),
    ).toThrow('resourceMetadata is not protected-resource metadata');
    expect(() =>
      checkedDiscoveryState({ ...base, resourceMetadataUrl: 'not a url' }, server, check),
    ).toThrow('resourceMetadataUrl: expected a URL, received string "not a url"');
  });

  it('takes a state without metadata (a server that publishes none)', () => {
    const state = { authorizationServerUrl: 'https://as.example.com' };
    expect(checkedDiscoveryState(state, server, check)).toBe(state);
  });
});
