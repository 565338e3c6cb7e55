// An isolated runaway tool is stopped at its deadline whichever surface calls it: an
// agent run (scripted model) and an MCP server (in-memory transport).
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { agent } from '../../src/ai/agent/index.ts';
import { mcpClient, mcpServer } from '../../src/ai/mcp/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { busy, spin } from './fixtures/isolated-tools.ts';

describe('isolated tools on every surface', () => {
  it('an agent gets a timeout result for a runaway call and goes on', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'a', name: 'spin', args: {} }] },
      { toolCalls: [{ id: 'b', name: 'busy', args: { ms: 1500 } }] },
      'Gave up.',
    ]);
    const result = await agent({ model, tools: [spin, busy] }).generate('go');
    expect(result.status).toBe('done');
    if (result.status !== 'done') return;
    expect(result.text).toBe('Gave up.');
    expect(result.steps.map((step) => step.toolResults)).toEqual([
      [
        {
          type: 'tool_result',
          toolCallId: 'a',
          content: 'Tool "spin" timed out after 200 ms',
          isError: true,
        },
      ],
      [
        {
          type: 'tool_result',
          toolCallId: 'b',
          content: 'Tool "busy" timed out after 100 ms',
          isError: true,
        },
      ],
      [],
    ]);
  });

  it('an MCP server answers a runaway call with an isError result at its deadline', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer({ name: 'iso', version: '1.0.0', tools: [spin] }).connect(serverSide);
    const client = mcpClient({ transport: clientSide });
    const [remote] = await client.tools();
    expect(await remote.invoke({})).toEqual({
      content: [{ type: 'text', text: 'Tool "spin" timed out after 200 ms' }],
      isError: true,
    });
    await client.close();
  });
});
