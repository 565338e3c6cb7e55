/**
 * What a server can make an `mcpClient()` hold: followed resources are capped (decision
 * 211), and a flood of log messages and resource updates on a 2026-07-28 connection is
 * handled as it comes — nothing queues, a listener that throws breaks nothing, and the
 * connection answers afterwards.
 */
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { MAX_FOLLOWED_RESOURCES } from '../../src/ai/mcp/client/resource-follows.ts';
import {
  type McpToolServer,
  mcpClient,
  mcpServer,
  resource,
  resourceTemplate,
} from '../../src/ai/mcp/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';

const FLOOD = 2_000;

function floodingServer(): McpToolServer {
  const server: McpToolServer = mcpServer({
    name: 'flood',
    version: '1.0.0',
    resources: [
      resource({ uri: 'docs://readme', name: 'readme', read: () => '# Hello' }),
      resourceTemplate({ uriTemplate: 'notes://{name}', name: 'note', read: ({ name }) => name }),
    ],
    tools: [
      tool({
        name: 'flood',
        parameters: v.object({}),
        execute: (_args, ctx) => {
          for (let i = 0; i < FLOOD; i++) {
            ctx.log('info', `line ${i}`);
            server.notifyResourceUpdated('docs://readme');
          }
          return 'flooded';
        },
      }),
    ],
  });
  return server;
}

describe('mcpClient against a server that floods or is followed too much', () => {
  it(`follows at most ${MAX_FOLLOWED_RESOURCES} resources, naming the cap`, async () => {
    const server = floodingServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = mcpClient({ transport: clientSide });
    for (let i = 0; i < MAX_FOLLOWED_RESOURCES; i++) {
      await client.subscribe(`notes://${i}`, () => undefined);
    }
    await expect(client.subscribe('notes://one-more', () => undefined)).rejects.toThrow(
      `mcpClient.subscribe: this client already follows ${MAX_FOLLOWED_RESOURCES} resources; unsubscribe from some before following "notes://one-more"`,
    );
    // Another listener of a followed resource is not one more resource.
    await client.subscribe('notes://0', () => undefined);
    await client.close();
  });

  it(`takes ${FLOOD} log messages and ${FLOOD} resource updates on 2026-07-28 as they come`, async () => {
    const http = await floodingServer().listen({ port: 0 });
    let logs = 0;
    let updates = 0;
    const client = mcpClient({
      url: http.url,
      onLog: () => {
        logs++;
        throw new Error('a listener that fails');
      },
    });
    try {
      await client.subscribe('docs://readme', () => {
        updates++;
        throw new Error('a listener that fails');
      });
      expect(client.protocolVersion()).toBe('2026-07-28');
      const [flood] = await client.tools();
      expect((await flood.invoke({})).isError).toBeFalsy();
      await expect.poll(() => [logs, updates], { timeout: 20_000 }).toEqual([FLOOD, FLOOD]);
      expect((await client.readResource('docs://readme')).contents).toHaveLength(1);
    } finally {
      await client.close();
      await http.close();
    }
  });
});
