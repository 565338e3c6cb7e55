/**
 * `ctx.elicit()` inside a prompt's `get`: fino's client and server over Streamable HTTP
 * in the default negotiation (2026-07-28, an input-required result and `get` run again),
 * over a 2025-era connection (an `elicitation/create` while `prompts/get` is open), and a
 * forged state refused. Decision 207.
 */

import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, mcpClient, mcpServer, prompt } from '../../../../src/ai/mcp/index.ts';
import { modernRequest } from '../fixtures/modern-http.ts';

let runs = 0;
const brief = prompt({
  name: 'brief',
  description: 'Asks the user for the topic first.',
  get: async (_args, ctx) => {
    runs++;
    const answer = await ctx.elicit({
      key: 'topic',
      message: 'Which topic?',
      schema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
    });
    return answer.action === 'accept' ? `Write a brief on ${answer.content.topic}.` : 'No topic.';
  },
});

const server = () => mcpServer({ name: 'briefs', version: '1.0.0', tools: [], prompts: [brief] });
const onElicit = () => ({ action: 'accept' as const, content: { topic: 'tides' } });
const firstText = (result: { messages: { content: unknown }[] }) =>
  (result.messages[0]?.content as { text?: string } | undefined)?.text;

describe('ctx.elicit in a prompt', () => {
  let http: McpHttpServer;
  beforeAll(async () => {
    http = await server().listen({ port: 0 });
  });
  afterAll(() => http.close());

  it("fino's client gets the prompt after answering its form (HTTP, default negotiation)", async () => {
    const client = mcpClient({
      transport: new StreamableHTTPClientTransport(new URL(http.url)),
      onElicit,
    });
    const before = runs;
    expect(firstText(await client.getPrompt('brief'))).toBe('Write a brief on tides.');
    expect(client.protocolVersion()).toBe('2026-07-28');
    expect(runs - before).toBe(2); // asked, then run again with the answer
    await client.close();
  });

  it('asks over a 2025-era connection while prompts/get is open', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server().connect(serverSide);
    const client = mcpClient({ transport: clientSide, onElicit });
    await client.connect();
    const before = runs;
    expect(firstText(await client.getPrompt('brief'))).toBe('Write a brief on tides.');
    expect(runs - before).toBe(1);
    await client.close();
  });

  it('refuses a forged or foreign state with -32602, and a client without forms is told so', async () => {
    const first = await modernRequest(http.url, 'prompts/get', { name: 'brief' });
    expect(first.result.resultType).toBe('input_required');
    expect(Object.keys(first.result.inputRequests)).toEqual(['topic']);
    const forged = await modernRequest(http.url, 'prompts/get', {
      name: 'brief',
      inputResponses: { topic: { action: 'accept', content: { topic: 'x' } } },
      requestState: `${first.result.requestState}x`,
    });
    expect(forged.error?.code).toBe(-32602);
    expect(forged.error?.message).toContain('Invalid or expired requestState for prompt "brief"');
    const noForms = await modernRequest(http.url, 'prompts/get', { name: 'brief' }, {});
    expect(noForms.error?.message).toContain('it declares no elicitation capability');
  });
});
