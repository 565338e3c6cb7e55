/**
 * `mcpClient({ url, auth: oauth() })` against a real authorization server on 127.0.0.1
 * that rotates refresh tokens and revokes a grant whose refresh token is reused.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fileTokenStore,
  type McpHttpServer,
  mcpClient,
  memoryTokenStore,
  oauth,
  type TokenStore,
} from '../../../../src/ai/mcp/index.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';
import {
  approve,
  startAuthorizationServer,
  startProtectedServer,
  type TestAuthorizationServer,
} from './fixtures/authorization-server.ts';

const dir = tempDir('oauth-client');
let as: TestAuthorizationServer;
let server: McpHttpServer;
const closing: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function start(options: Parameters<typeof startAuthorizationServer>[0] = {}) {
  as = await startAuthorizationServer(options);
  server = await startProtectedServer(as);
  closing.push(
    () => as.close(),
    () => server.close(),
  );
}

function client(store: TokenStore) {
  const made = mcpClient({ url: server.url, auth: oauth({ store, authorize: approve }) });
  closing.push(() => made.close());
  return made;
}

async function echoes(tools: Awaited<ReturnType<ReturnType<typeof client>['tools']>>, n: number) {
  const echo = tools.find((t) => t.name === 'echo');
  return Promise.all(Array.from({ length: n }, (_, i) => echo?.invoke({ text: `call ${i}` })));
}

describe('oauth() token renewal', () => {
  it('renews an expired token once for 4 concurrent calls, with a rotating refresh token', async () => {
    await start();
    const tools = await client(memoryTokenStore()).tools();
    expect(as.counts.get('/token:authorization_code')).toBe(1);
    as.expireAccessTokens();
    const results = await echoes(tools, 4);
    expect(results.map((r) => r?.isError ?? false)).toEqual([false, false, false, false]);
    expect(as.counts.get('/token:refresh_token')).toBe(1);
    expect(as.revocations).toBe(0);
  });

  it('renews once across two clients whose stores share one file', async () => {
    await start();
    const path = join(dir, 'shared-tokens.json');
    const first = await client(fileTokenStore(path)).tools();
    const second = await client(fileTokenStore(path)).tools();
    expect(as.counts.get('/token:authorization_code')).toBe(1);
    as.expireAccessTokens();
    const results = (await Promise.all([echoes(first, 2), echoes(second, 2)])).flat();
    expect(results.map((r) => r?.isError ?? false)).toEqual([false, false, false, false]);
    expect(as.counts.get('/token:refresh_token')).toBe(1);
    expect(as.revocations).toBe(0);
  });
});

/** The login failure of a client on `server`, as `tools()` reports it. */
async function loginFailure() {
  const error = await client(memoryTokenStore())
    .tools()
    .then(
      () => undefined,
      (thrown: unknown) => thrown as Error & { code?: string; cause?: unknown },
    );
  expect(error?.code).toBe('UNAUTHORIZED');
  let cause: unknown = error;
  while (cause !== undefined && (cause as Error).name !== 'McpAuthError') {
    cause = (cause as { cause?: unknown }).cause;
  }
  return { error: error as Error, auth: cause as (Error & { code: string }) | undefined };
}

describe('oauth() refuses what the MCP authorization spec forbids', () => {
  for (const [label, methods] of [
    ['without code_challenge_methods_supported', undefined],
    ['with only plain', ['plain']],
  ] as const) {
    it(`refuses an authorization server ${label}`, async () => {
      await start({ metadata: { code_challenge_methods_supported: methods } });
      const { error, auth } = await loginFailure();
      expect(auth?.code).toBe('PKCE_UNSUPPORTED');
      expect(error.message).toContain('does not support PKCE with S256');
      expect(as.counts.get('/register')).toBeUndefined();
      expect(as.counts.get('/authorize')).toBeUndefined();
    });
  }

  it('logs in through the 2025-03-26 default endpoints of a server without metadata', async () => {
    await start({ metadata: null });
    expect((await client(memoryTokenStore()).tools()).map((t) => t.name)).toEqual(['echo']);
    expect(as.counts.get('/authorize')).toBe(1);
  });

  for (const field of ['authorization_endpoint', 'registration_endpoint'] as const) {
    it(`refuses a plain-http ${field} on a host that is not loopback`, async () => {
      await start({ metadata: { [field]: 'http://auth.example.com/x' } });
      const { error, auth } = await loginFailure();
      expect(auth?.code).toBe('INSECURE_ENDPOINT');
      expect(error.message).toContain('http://auth.example.com/x: it is not https');
    });
  }

  it('refuses a token that is not a Bearer token', async () => {
    await start({ tokenType: 'DPoP' });
    const { error, auth } = await loginFailure();
    expect(auth?.code).toBe('UNSUPPORTED_TOKEN_TYPE');
    expect(error.message).toContain(
      'a token of type string "DPoP"; only Bearer tokens are supported',
    );
  });

  it('takes bearer in any case', async () => {
    await start({ tokenType: 'bearer' });
    expect((await client(memoryTokenStore()).tools()).map((t) => t.name)).toEqual(['echo']);
  });

  it('registers again when the registered client secret has expired', async () => {
    await start({
      registration: () => ({
        client_secret: 'new-secret',
        client_secret_expires_at: Math.floor(Date.now() / 1000) + 3600,
      }),
    });
    const store = memoryTokenStore();
    // Registered by an earlier run; the secret expired since (the server forgot the client).
    await store.save(server.url, {
      client: { client_id: 'old', client_secret: 's', client_secret_expires_at: 1_000_000 },
    });
    expect((await client(store).tools()).map((t) => t.name)).toEqual(['echo']);
    const record = await store.load(server.url);
    expect(record?.client).toMatchObject({ client_secret: 'new-secret' });
    expect(as.counts.get('/register')).toBe(1);
  });

  it('names a malformed token answer in one line', async () => {
    await start({ tokenType: 7 as never });
    const { auth } = await loginFailure();
    expect(auth?.code).toBe('LOGIN_FAILED');
    expect(auth?.message).toMatch(
      /^mcpClient: could not log in to .*: its answer is malformed: token_type: /,
    );
    expect(auth?.message).not.toContain('\n');
  });
});
