/**
 * An agent with `fallbackModels` behind MCP: the official SDK client calls it as a tool
 * of fino's server; gpt-4.1 (fake OpenAI server) answers 503, Claude (fake Anthropic
 * server) answers, and the client gets Claude's answer.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { agent } from '../../../../src/ai/agent/index.ts';
import { mcpServer } from '../../../../src/ai/mcp/index.ts';
import { anthropic, openai } from '../../../../src/ai/model/index.ts';
import { type FakeProvider, fakeProvider } from '../../../helpers/fake-provider.ts';
import { anthropicFixture } from '../../agent/providers/anthropic.ts';

const servers: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('an agent with fallbackModels as an MCP tool', () => {
  it('answers the SDK client through the second provider when the first answers 503', async () => {
    const gpt = await fakeProvider([
      { status: 503, json: { error: { message: 'overloaded', type: 'server_error' } } },
    ]);
    const claude = await fakeProvider([anthropicFixture.text('Claude here.', false)]);
    servers.push(gpt, claude);
    const helper = agent({
      name: 'helper',
      model: openai({ model: 'gpt-4.1', apiKey: 'k', baseURL: gpt.url, maxRetries: 0 }),
      fallbackModels: [anthropic({ model: 'claude-sonnet-4-5', apiKey: 'k', baseURL: claude.url })],
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer({
      name: 'helpers',
      version: '1.0.0',
      tools: [helper.asTool({ description: 'Answers questions.' })],
    }).connect(serverSide);
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'helper', arguments: { input: 'Hi' } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'Claude here.' }]);
    expect([gpt.count, claude.count]).toEqual([1, 1]);
    await client.close();
  });
});
