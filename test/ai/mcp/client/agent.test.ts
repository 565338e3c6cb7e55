/** A fino agent using MCP tools: remote tools are ordinary tools to the loop. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agent } from '../../../../src/ai/agent/index.ts';
import {
  httpTransport,
  type McpHttpServer,
  mcpClient,
  mcpServer,
} from '../../../../src/ai/mcp/index.ts';
import { scriptedModel } from '../../../../src/ai/model/index.ts';
import { sdkHttpHandler, seen } from '../fixtures/sdk-server.ts';
import { ask, echo } from '../fixtures/tools.ts';

let sdkServer: Server;
let sdkUrl: string;
let finoServer: McpHttpServer;
beforeAll(async () => {
  const handle = toNodeHandler(sdkHttpHandler());
  sdkServer = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => sdkServer.listen(0, '127.0.0.1', resolve));
  sdkUrl = `http://127.0.0.1:${(sdkServer.address() as AddressInfo).port}/mcp`;
  finoServer = await mcpServer({ name: 'fino', version: '1.0.0', tools: [echo, ask] }).listen();
});
afterAll(async () => {
  sdkServer.closeAllConnections();
  await new Promise((resolve) => sdkServer.close(resolve));
  await finoServer.close();
});

const toolResults = (messages: { content: unknown }[]) =>
  messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((p) => p.type === 'tool_result');

describe('a fino agent with MCP tools', () => {
  it('calls a remote tool and gives the model its result', async () => {
    const client = mcpClient({ transport: httpTransport({ url: sdkUrl }) });
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'greet', args: { name: 'Ada' } }] },
      'Greeted Ada.',
    ]);
    const result = await agent({ model, tools: await client.tools() }).generate('Greet Ada');
    await client.close();
    expect(result.status).toBe('done');
    if (result.status !== 'done') return;
    expect(result.text).toBe('Greeted Ada.');
    expect(toolResults(result.messages)).toEqual([
      { type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'Hello, Ada!' }] },
    ]);
    expect(model.requests[0].tools?.map((t) => t.name)).toContain('greet');
  });

  it('suspends for approval before a remote destructive tool runs, and runs it once approved', async () => {
    const client = mcpClient({ transport: httpTransport({ url: sdkUrl }) });
    const bot = agent({
      model: scriptedModel([
        { toolCalls: [{ id: 'd1', name: 'delete_item', args: { id: 'x7' } }] },
        'Deleted x7.',
      ]),
      tools: await client.tools(),
    });
    const before = seen.calls.filter((c) => c === 'delete_item').length;
    const first = await bot.generate('Delete item x7');
    expect(first.status).toBe('suspended');
    if (first.status !== 'suspended') return;
    expect(first.pending).toMatchObject([
      { kind: 'approval', toolName: 'delete_item', risk: 'destructive' },
    ]);
    expect(seen.calls.filter((c) => c === 'delete_item').length).toBe(before);
    const second = await bot.resume(JSON.parse(JSON.stringify(first.state)), {
      d1: { approve: true },
    });
    await client.close();
    expect(second.status).toBe('done');
    expect(seen.calls.filter((c) => c === 'delete_item').length).toBe(before + 1);
  });

  it("answers a fino server's suspension through the client's elicitation handler", async () => {
    const client = mcpClient({
      transport: httpTransport({ url: finoServer.url }),
      onElicit: (request) => ({
        action: 'accept',
        content: { answer: `green (asked: ${request.message})` },
      }),
    });
    const model = scriptedModel([{ toolCalls: [{ id: 'a1', name: 'ask', args: {} }] }, 'Done.']);
    const result = await agent({ model, tools: await client.tools() }).generate('Pick a colour');
    await client.close();
    expect(result.status).toBe('done');
    if (result.status !== 'done') return;
    expect(toolResults(result.messages)).toEqual([
      {
        type: 'tool_result',
        toolCallId: 'a1',
        content: [{ type: 'text', text: 'colour: green (asked: Which colour?)' }],
      },
    ]);
  });
});
