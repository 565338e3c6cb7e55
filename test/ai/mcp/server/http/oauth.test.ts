/**
 * `mcpServer({ auth })` as an OAuth resource server, driven from outside: raw HTTP for
 * the metadata and the challenges, fino's client with a bearer token for the calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  httpTransport,
  type McpHttpServer,
  mcpClient,
  mcpServer,
} from '../../../../../src/ai/mcp/index.ts';
import { tool } from '../../../../../src/ai/tool/index.ts';
import { v } from '../../../../../src/validate/index.ts';
import { INITIALIZE } from '../../fixtures/raw-http.ts';

const TOKENS: Record<string, string[]> = {
  reader: ['mcp:read'],
  admin: ['mcp:read', 'notes:delete'],
  outsider: ['other'],
};

const list = tool({
  name: 'list_notes',
  description: 'Lists notes.',
  parameters: v.object({}),
  execute: () => 'a, b',
});
const remove = tool({
  name: 'delete_note',
  description: 'Deletes a note.',
  parameters: v.object({}),
  scopes: ['notes:delete'],
  execute: () => 'deleted',
});
describe('mcpServer({ auth })', () => {
  let http: McpHttpServer;
  beforeAll(async () => {
    http = await mcpServer({
      name: 'notes',
      version: '1.0.0',
      tools: [list, remove],
      auth: {
        verify: (token) => (TOKENS[token] ? { clientId: token, scopes: TOKENS[token] } : undefined),
        resource: 'http://127.0.0.1/mcp',
        authorizationServers: ['https://auth.example.com'],
        scopes: ['mcp:read'],
      },
    }).listen({ port: 0 });
  });
  afterAll(() => http.close());

  const post = (token?: string) =>
    fetch(http.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: INITIALIZE,
    });

  it('publishes protected-resource metadata naming the authorization servers and scopes', async () => {
    const response = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', http.url));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource: 'http://127.0.0.1/mcp',
      authorization_servers: ['https://auth.example.com'],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp:read', 'notes:delete'],
    });
  });

  it('answers a missing or unknown token with 401 and a challenge naming the metadata', async () => {
    for (const token of [undefined, 'forged']) {
      const response = await post(token);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(
        /^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1\/\.well-known\/oauth-protected-resource\/mcp"/,
      );
    }
  });

  it('answers a token without the required scope with 403 insufficient_scope', async () => {
    const response = await post('outsider');
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
    expect(response.headers.get('www-authenticate')).toMatch(/scope="mcp:read"/);
  });

  it('serves a valid token, and refuses a tool whose scope the token lacks', async () => {
    for (const [token, deleted] of [
      ['reader', false],
      ['admin', true],
    ] as const) {
      const client = mcpClient({
        transport: httpTransport({ url: http.url, headers: { Authorization: `Bearer ${token}` } }),
      });
      const tools = Object.fromEntries((await client.tools()).map((t) => [t.name, t]));
      expect((await tools.list_notes.invoke({})).content).toEqual([{ type: 'text', text: 'a, b' }]);
      if (deleted) {
        expect((await tools.delete_note.invoke({})).content).toEqual([
          { type: 'text', text: 'deleted' },
        ]);
      } else {
        await expect(tools.delete_note.invoke({})).resolves.toMatchObject({ isError: true });
        const result = await tools.delete_note.invoke({});
        expect(JSON.stringify(result.content)).toContain(
          'Tool \\"delete_note\\" needs the scope(s) notes:delete, which this access token does not carry',
        );
      }
      await client.close();
    }
  });

  it('lists the scopes of a tool added later in scopes_supported, and checks them', async () => {
    const archive = tool({
      name: 'archive_notes',
      parameters: v.object({}),
      scopes: ['notes:archive'],
      execute: () => 'archived',
    });
    const server = mcpServer({
      name: 'notes',
      version: '1.0.0',
      tools: [list],
      auth: {
        verify: (token) => ({ clientId: token, scopes: token.split(',') }),
        resource: 'http://127.0.0.1/mcp',
        authorizationServers: ['https://auth.example.com'],
      },
    });
    const served = await server.listen({ port: 0 });
    try {
      const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', served.url);
      expect(
        ((await (await fetch(metadataUrl)).json()) as { scopes_supported?: string[] })
          .scopes_supported,
      ).toBeUndefined();
      server.addTool(archive);
      expect(
        ((await (await fetch(metadataUrl)).json()) as { scopes_supported?: string[] })
          .scopes_supported,
      ).toEqual(['notes:archive']);
      for (const [token, text] of [
        ['none', 'needs the scope(s) notes:archive'],
        ['notes:archive', 'archived'],
      ] as const) {
        const client = mcpClient({
          transport: httpTransport({
            url: served.url,
            headers: { Authorization: `Bearer ${token}` },
          }),
        });
        const [tool] = (await client.tools()).filter((t) => t.name === 'archive_notes');
        expect(JSON.stringify((await tool.invoke({})).content)).toContain(text);
        await client.close();
      }
    } finally {
      await served.close();
    }
  });

  it('refuses bad auth options at construction', () => {
    expect(() =>
      mcpServer({
        name: 'x',
        version: '1',
        tools: [],
        auth: { verify: () => undefined, resource: 'nope', authorizationServers: ['https://a'] },
      }),
    ).toThrow(
      `mcpServer: auth.resource: expected the endpoint's absolute URL, received string "nope"`,
    );
    expect(() =>
      mcpServer({
        name: 'x',
        version: '1',
        tools: [],
        auth: { verify: () => undefined, resource: 'http://h/mcp', authorizationServers: [] },
      }),
    ).toThrow('mcpServer: auth.authorizationServers: expected a non-empty array of URLs');
  });
});
