/** `sampleWith(model)`: a server's `sampling/createMessage` answered by a fino `Model`. */
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { mcpClient, mcpServer, sampleWith } from '../../../../src/ai/mcp/index.ts';
import { scriptedModel } from '../../../../src/ai/model/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';

const summarize = tool({
  name: 'summarize',
  parameters: v.object({ text: v.string() }),
  execute: async ({ text }, ctx) => {
    const answer = await ctx.sample({
      messages: [
        { role: 'user', content: `Summarize: ${text}` },
        { role: 'assistant', content: 'In how many words?' },
        { role: 'user', content: 'Three.' },
      ],
      systemPrompt: 'Be brief.',
      maxTokens: 50,
      temperature: 0.2,
    });
    return `${answer.text} (${answer.model}, ${answer.stopReason})`;
  },
});

async function connected(model: ReturnType<typeof scriptedModel>) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcpServer({ name: 'notes', version: '1.0.0', tools: [summarize] }).connect(serverSide);
  return mcpClient({ transport: clientSide, onSample: sampleWith(model) });
}

describe('sampleWith', () => {
  it('answers a tool’s ctx.sample with the model, passing its messages and settings', async () => {
    const model = scriptedModel(['Short and sweet.']);
    const client = await connected(model);
    try {
      const [remote] = await client.tools();
      expect((await remote.invoke({ text: 'a long text' })).content).toEqual([
        { type: 'text', text: `Short and sweet. (${model.id}, endTurn)` },
      ]);
      expect(model.requests).toHaveLength(1);
      expect(model.requests[0]).toMatchObject({
        system: 'Be brief.',
        maxTokens: 50,
        temperature: 0.2,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Summarize: a long text' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'In how many words?' }] },
          { role: 'user', content: [{ type: 'text', text: 'Three.' }] },
        ],
      });
    } finally {
      await client.close();
    }
  });

  it('passes a model failure to the tool as a failed sample', async () => {
    const client = await connected(scriptedModel([]));
    try {
      const [remote] = await client.tools();
      const result = await remote.invoke({ text: 'x' });
      expect(result.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('refuses what is not a model', () => {
    expect(() => sampleWith({} as never)).toThrow(
      'sampleWith: expected a fino Model (with generate()), received object',
    );
  });
});
