/**
 * Attacks on `mcpServer({ auth })` as a resource server, over raw HTTP: a token minted
 * for another resource (its audience names another server), and a `verify` that never
 * settles. The first is refused with `401 invalid_token`, the second answered `503`
 * within the timeout; the server keeps serving good tokens meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type McpHttpServer,
  mcpServer,
  type VerifiedToken,
  type VerifyContext,
} from '../../src/ai/mcp/index.ts';
import { INITIALIZE } from '../ai/mcp/fixtures/raw-http.ts';

const RESOURCE = 'http://127.0.0.1/mcp';
const HOUR = () => Date.now() / 1000 + 3600;

/** Tokens by value, each with the audience its authorization server minted it for. */
const TOKENS: Record<string, VerifiedToken> = {
  mine: { clientId: 'a', scopes: [], audience: RESOURCE, expiresAt: HOUR() },
  'mine-listed': {
    clientId: 'a',
    scopes: [],
    audience: ['https://other.example/api', 'HTTP://127.0.0.1/mcp/'],
    expiresAt: HOUR(),
  },
  'no-audience': { clientId: 'a', scopes: [], expiresAt: HOUR() },
  'for-another': {
    clientId: 'a',
    scopes: [],
    audience: 'https://other.example/mcp',
    expiresAt: HOUR(),
  },
  'for-none': { clientId: 'a', scopes: [], audience: [], expiresAt: HOUR() },
};

describe('mcpServer({ auth }) against tokens for other resources and a verify that hangs', () => {
  let http: McpHttpServer;
  const seen: VerifyContext[] = [];
  beforeAll(async () => {
    http = await mcpServer({
      name: 'notes',
      version: '1.0.0',
      tools: [],
      auth: {
        resource: RESOURCE,
        authorizationServers: ['https://auth.example.com'],
        verifyTimeoutMs: 300,
        verify: (token, context) => {
          seen.push(context);
          if (token === 'hang') return new Promise<never>(() => {});
          return TOKENS[token];
        },
      },
    }).listen({ port: 0 });
  });
  afterAll(() => http.close());

  const post = (token: string) =>
    fetch(http.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${token}`,
      },
      body: INITIALIZE,
      signal: AbortSignal.timeout(10_000),
    });

  it("tells verify the server's resource, so it can check the audience itself", async () => {
    seen.length = 0;
    expect((await post('mine')).status).toBe(200);
    expect(seen).toEqual([{ resource: RESOURCE }]);
  });

  it('refuses a token whose audience names another resource with 401 invalid_token', async () => {
    for (const token of ['for-another', 'for-none']) {
      const response = await post(token);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
      const body = (await response.json()) as { error: string; error_description: string };
      expect(body.error).toBe('invalid_token');
      expect(body.error_description).toContain('Token was not issued for this resource');
      expect(body.error_description).toContain(`does not name ${RESOURCE}`);
    }
  });

  it('accepts an audience naming this resource (in a list, spelled with another case or a slash), and none', async () => {
    for (const token of ['mine', 'mine-listed', 'no-audience']) {
      expect((await post(token)).status, token).toBe(200);
    }
  });

  it('answers 503 when verify does not settle within verifyTimeoutMs, and keeps serving', async () => {
    const started = performance.now();
    const hung = await post('hang');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(hung.status).toBe(503);
    expect(hung.headers.get('retry-after')).toBe('1');
    expect(await hung.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description:
        'the access token could not be checked: verify did not answer within 300 ms; retry later',
    });
    expect((await post('mine')).status).toBe(200);
  });

  it('refuses a verifyTimeoutMs that is not a timer duration at construction', () => {
    for (const bad of [0, -1, Number.NaN, 2 ** 31]) {
      expect(() =>
        mcpServer({
          name: 's',
          version: '1',
          tools: [],
          auth: {
            resource: RESOURCE,
            authorizationServers: ['https://auth.example.com'],
            verify: () => undefined,
            verifyTimeoutMs: bad,
          },
        }),
      ).toThrow('mcpServer: auth.verifyTimeoutMs');
    }
  });
});
