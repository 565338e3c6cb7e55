import { afterEach, describe, expect, it, vi } from 'vitest';
import { mcpServer } from '../../../../../src/ai/mcp/index.ts';
import { eraRouter } from '../../../../../src/ai/mcp/server/http/era-router.ts';
import { tool } from '../../../../../src/ai/tool/index.ts';
import { v } from '../../../../../src/validate/index.ts';
import { CLIENT_KINDS, connectClient } from '../../fixtures/clients.ts';

const echo = tool({
  name: 'echo',
  description: 'Repeat a text.',
  parameters: v.object({ text: v.string() }),
  sideEffects: false,
  execute: ({ text }) => text,
});

afterEach(() => vi.restoreAllMocks());

describe('mcpServer over HTTP reads each request body once', () => {
  for (const kind of CLIENT_KINDS) {
    it(`serves a ${kind} tools/call without cloning the request`, async () => {
      const http = await mcpServer({ name: 't', version: '1', tools: [echo] }).listen();
      const client = await connectClient(kind, { url: http.url });
      try {
        const clone = vi.spyOn(Request.prototype, 'clone');
        const result = await client.callTool('echo', { text: 'once' });
        expect(result.content[0].text).toBe('once');
        expect(clone).not.toHaveBeenCalled();
      } finally {
        await client.close();
        await http.close();
      }
    });
  }
});

describe('eraRouter', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  const answering = (name: string, seen: string[]) => async (request: Request) => {
    seen.push(`${name}: ${await request.text()}`);
    return new Response(name);
  };

  it('sends a 2025-era initialize to the session handler with its body intact', async () => {
    const seen: string[] = [];
    const route = eraRouter(answering('modern', seen), answering('legacy', seen), undefined);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      },
    });
    expect(await (await route(post(body))).text()).toBe('legacy');
    expect(seen).toEqual([`legacy: ${body}`]);
  });

  it('sends a body that is not JSON, or empty, where the SDK sends it (the session handler), unread', async () => {
    const seen: string[] = [];
    const route = eraRouter(answering('modern', seen), answering('legacy', seen), undefined);
    await route(post('{not json'));
    await route(post(''));
    expect(seen).toEqual(['legacy: {not json', 'legacy: ']);
  });

  it('sends a request with a session id to the session handler without reading it', async () => {
    const seen: string[] = [];
    const route = eraRouter(answering('modern', seen), answering('legacy', seen), undefined);
    await route(post('{"jsonrpc":"2.0","id":2,"method":"ping"}', { 'mcp-session-id': 's1' }));
    expect(seen).toEqual(['legacy: {"jsonrpc":"2.0","id":2,"method":"ping"}']);
  });
});
