import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  httpTransport,
  type McpToolClient,
  type McpToolServer,
  mcpClient,
  mcpServer,
  stdioTransport,
  type ToolsDiff,
} from '../../../../src/ai/mcp/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';
import { echo } from '../fixtures/tools.ts';

const calls: string[] = [];
const counter = (description: string) =>
  tool({
    name: 'count',
    description,
    parameters: v.object({}),
    execute: () => {
      calls.push(description);
      return 'counted';
    },
  });

/** Resolves with the next listing difference the client reports. */
const nextChange = (client: McpToolClient) =>
  new Promise<ToolsDiff>((resolve) => {
    const stop = client.onToolsChanged((diff) => {
      stop();
      resolve(diff);
    });
  });

/** Adds, changes and removes tools on `server` while `client` holds Tool objects. */
async function exerciseLiveList(server: McpToolServer, client: McpToolClient) {
  calls.length = 0;
  const [first] = await client.tools();
  expect(first?.name).toBe('echo');

  let change = nextChange(client);
  server.addTool(counter('Count once.'));
  expect(await change).toEqual({ added: ['count'], removed: [], changed: [] });
  const count = (await client.tools()).find((t) => t.name === 'count');
  expect(await count?.invoke({})).toEqual({ content: [{ type: 'text', text: 'counted' }] });

  // The same name with another definition: the old Tool object refuses to call it.
  change = nextChange(client);
  server.removeTool('count');
  await change;
  change = nextChange(client);
  server.addTool(counter('Count, then email everyone.'));
  expect(await change).toEqual({ added: ['count'], removed: [], changed: [] });
  const stale = await count?.invoke({});
  expect(stale?.isError).toBe(true);
  expect(stale?.content).toContain('changed its definition since it was listed');

  change = nextChange(client);
  expect(server.removeTool('echo')).toBe(true);
  expect(await change).toEqual({ added: [], removed: ['echo'], changed: [] });
  const gone = await first?.invoke({ text: 'hi' });
  expect(gone).toEqual({
    content:
      'The remote tool "echo" is no longer offered by its server; it was not called. List the tools again.',
    isError: true,
  });
  expect(calls).toEqual(['Count once.']);
  expect(server.tools.map((t) => t.name)).toEqual(['count']);
}

describe('live tool lists', () => {
  it('tells an in-memory mcpClient, whose stale Tool objects stop calling', async () => {
    const server = mcpServer({ name: 'live', version: '1.0.0', tools: [echo] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = mcpClient({ transport: clientSide });
    try {
      await exerciseLiveList(server, client);
    } finally {
      await client.close();
    }
  });

  it('tells an mcpClient over Streamable HTTP (2026-07-28 subscription)', async () => {
    const server = mcpServer({ name: 'live', version: '1.0.0', tools: [echo] });
    const listening = await server.listen({ port: 0 });
    const client = mcpClient({ transport: httpTransport({ url: listening.url }) });
    try {
      await exerciseLiveList(server, client);
    } finally {
      await client.close();
      await listening.close();
    }
  });

  it('tells an mcpClient over stdio', async () => {
    const client = mcpClient({
      transport: stdioTransport({
        command: process.execPath,
        args: ['--import', 'tsx', new URL('../fixtures/live-server.ts', import.meta.url).pathname],
      }),
    });
    try {
      const byName = async () => Object.fromEntries((await client.tools()).map((t) => [t.name, t]));
      const before = await byName();
      let change = nextChange(client);
      await before.unlock?.invoke({});
      expect(await change).toEqual({ added: ['secret'], removed: [], changed: [] });
      const { secret, lock } = await byName();
      expect((await secret?.invoke({}))?.content).toEqual([{ type: 'text', text: 'the secret' }]);
      change = nextChange(client);
      await lock?.invoke({});
      expect(await change).toEqual({ added: [], removed: ['secret'], changed: [] });
      expect(await secret?.invoke({})).toMatchObject({ isError: true });
    } finally {
      await client.close();
    }
  });

  it('sends notifications/tools/list_changed to a v1 client on a 2025 session', async () => {
    const server = mcpServer({ name: 'live', version: '1.0.0', tools: [echo] });
    const listening = await server.listen({ port: 0 });
    const client = new V1Client({ name: 'v1', version: '1.0.0' });
    try {
      await client.connect(new V1HttpTransport(new URL(listening.url)));
      expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
      const notified = new Promise<void>((resolve) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
      );
      // The notification travels on the session's GET stream: wait until it is open.
      await client.listTools();
      server.addTool(counter('Count once.'));
      await notified;
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'count']);
    } finally {
      await client.close();
      await listening.close();
    }
  });

  it('refuses to add a second tool of the same name or a value that is not a tool', () => {
    const server = mcpServer({ name: 'live', version: '1.0.0', tools: [echo] });
    expect(() => server.addTool(echo)).toThrow(
      'mcpServer.addTool: a tool named "echo" is already served; remove it first',
    );
    expect(() => server.addTool({ name: 'x' } as never)).toThrow(
      'mcpServer.addTool: expected a fino Task or Tool',
    );
    expect(server.removeTool('missing')).toBe(false);
  });
});
