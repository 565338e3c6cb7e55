/** An agent served as an MCP tool still hands off: the official SDK client sees the target's answer. */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { agent } from '../../../../src/ai/agent/index.ts';
import { mcpServer } from '../../../../src/ai/mcp/index.ts';
import { scriptedModel } from '../../../../src/ai/model/index.ts';

describe('an agent behind MCP', () => {
  it('hands off inside the tool call; the client gets the answer of the agent handed to', async () => {
    const spanish = agent({ name: 'spanish', model: scriptedModel(['¡Hola! ¿Cómo estás?']) });
    const triageModel = scriptedModel([{ toolCalls: [{ name: 'transfer_to_spanish', args: {} }] }]);
    const triage = agent({ name: 'triage', model: triageModel, handoffs: [spanish] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer({
      name: 'desk',
      version: '1.0.0',
      tools: [triage.asTool({ name: 'ask_desk', description: 'Ask the front desk.' })],
    }).connect(serverSide);
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(clientSide);
    const answer = await client.callTool({ name: 'ask_desk', arguments: { input: 'Hola' } });
    expect(answer.isError).toBeFalsy();
    expect(answer.content).toEqual([{ type: 'text', text: '¡Hola! ¿Cómo estás?' }]);
    expect(triageModel.requests[0].tools!.map((t) => t.name)).toEqual(['transfer_to_spanish']);
    await client.close();
  });
});
