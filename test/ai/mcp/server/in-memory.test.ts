/** fino's server and fino's client over the SDK's in-memory transport: `connect()` both ways. */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { mcpClient, mcpServer } from '../../../../src/ai/mcp/index.ts';
import { add, echo, pixel, remove } from '../fixtures/tools.ts';

describe('mcpServer.connect() with mcpClient over an SDK transport', () => {
  it('round-trips definitions, declarations and results between two fino ends', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer({ name: 'mem', version: '1.0.0', tools: [echo, add, pixel, remove] }).connect(
      serverSide,
    );
    const client = mcpClient({ transport: clientSide });
    const tools = Object.fromEntries((await client.tools()).map((t) => [t.name, t]));
    expect(tools.echo.parameters).toEqual(echo.parameters);
    expect(tools.echo).toMatchObject({
      title: 'Echo',
      sideEffects: false,
      requiresApproval: false,
    });
    expect(tools.remove).toMatchObject({ risk: 'destructive', requiresApproval: true });
    expect(await tools.add.invoke({ a: 1, b: 2 })).toEqual({
      content: [{ type: 'text', text: '{"sum":3}' }],
      structuredContent: { sum: 3 },
    });
    expect((await tools.pixel.invoke({})).content).toEqual((await pixel.invoke({})).content);
    await client.close();
  });

  it("gives clients the server's name, version and instructions", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer({
      name: 'mem',
      version: '2.1.0',
      instructions: 'Use echo to test the connection.',
      tools: [echo],
    }).connect(serverSide);
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(clientSide);
    expect(client.getServerVersion()).toMatchObject({ name: 'mem', version: '2.1.0' });
    expect(client.getInstructions()).toBe('Use echo to test the connection.');
    await client.close();
  });
});
