/**
 * An agent with guardrails behind MCP: a tripped guardrail reaches the official SDK
 * client as an `isError` tool result naming the guardrail and its output.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { agent, guardrail } from '../../../../src/ai/agent/index.ts';
import { mcpServer } from '../../../../src/ai/mcp/index.ts';
import { scriptedModel } from '../../../../src/ai/model/index.ts';

describe('guardrails behind MCP', () => {
  it('a tripped guardrail is a clear tool error for the MCP caller; a pass is the answer', async () => {
    const pii = guardrail({
      name: 'pii',
      check: (answer) => ({ tripped: /\d{3}-\d{4}/.test(String(answer)), output: 'phone number' }),
    });
    const support = agent({
      name: 'support',
      model: scriptedModel(['Hello!', 'Call 555-1234.']),
      outputGuardrails: [pii],
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer({
      name: 'support',
      version: '1.0.0',
      tools: [support.asTool({ description: 'Ask support.' })],
    }).connect(serverSide);
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(clientSide);
    const call = () => client.callTool({ name: 'support', arguments: { input: 'Hi' } });
    const ok = await call();
    expect(ok.isError).toBeFalsy();
    expect(ok.content).toEqual([{ type: 'text', text: 'Hello!' }]);
    const tripped = await call();
    expect(tripped.isError).toBe(true);
    const [text] = tripped.content as { type: string; text: string }[];
    expect(text.text).toMatch(/output guardrail "pii" tripped \(output: "phone number"\)/);
    await client.close();
  });
});
