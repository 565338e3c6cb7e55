/**
 * Malformed params of every kind of request `mcpServer()` answers: each gets `-32602`
 * with a sentence naming the wrong field and what it expected — never the schema
 * library's issue list as JSON, nor an internal error (`-32603`).
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { mcpServer, prompt, resource } from '../../src/ai/mcp/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';

const ANY = {
  '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) },
} as const;

async function connect() {
  const server = mcpServer({
    name: 'errors',
    version: '1.0.0',
    tools: [
      tool({
        name: 'echo',
        description: 'Echoes.',
        parameters: v.object({ text: v.string() }),
        execute: ({ text }) => text,
      }),
    ],
    resources: [resource({ uri: 'ok://small', name: 'small', read: () => 'fine' })],
    prompts: [prompt({ name: 'p', arguments: v.object({ n: v.string() }), get: ({ n }) => n })],
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'attacker', version: '1.0.0' });
  await client.connect(clientSide);
  const raw = async (method: string, params: unknown) => {
    try {
      await client.request({ method, params } as never, ANY as never);
      return undefined;
    } catch (error) {
      const { code, message } = error as { code: number; message: string };
      return { code, message };
    }
  };
  return { client, raw };
}

describe('requests with malformed params', () => {
  it('answers each with -32602 naming the field, not a raw validation dump', async () => {
    const { client, raw } = await connect();
    const cases: [string, unknown, string][] = [
      ['resources/read', { uri: 42 }, 'uri: expected string, received number'],
      ['resources/read', {}, 'uri: expected string, received undefined'],
      ['resources/subscribe', { uri: ['x'] }, 'uri: expected string, received array'],
      ['tools/call', { name: 5 }, 'name: expected string, received number'],
      ['tools/list', { cursor: 5 }, 'cursor: expected string, received number'],
      ['prompts/get', {}, 'name: expected string, received undefined'],
      ['prompts/get', { name: 'p', arguments: { n: 5 } }, 'arguments.n: expected string'],
      [
        'completion/complete',
        { ref: { type: 'ref/other' }, argument: { name: 'a', value: '' } },
        'ref: matches none of the accepted shapes (type: expected "ref/prompt"',
      ],
      ['logging/setLevel', { level: 'loud' }, 'level: expected one of "debug"|"info"'],
    ];
    for (const [method, params, names] of cases) {
      const answer = await raw(method, params);
      expect(answer?.code, method).toBe(-32602);
      expect(answer?.message, method).toContain(`Invalid params for ${method}: ${names}`);
      expect(answer?.message, method).not.toMatch(/"code":|\[\s*\{/);
    }
    // The server keeps serving.
    expect(await client.readResource({ uri: 'ok://small' })).toMatchObject({
      contents: [{ text: 'fine' }],
    });
    await client.close();
  });
});
