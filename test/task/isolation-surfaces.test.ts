// Isolated tools on every surface: a runaway call is stopped at its deadline in an
// agent run (scripted model) and an MCP server (in-memory transport); a suspension in a
// worker pauses an agent run and a session run, and their resume reaches the worker.
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { agent } from '../../src/ai/agent/index.ts';
import { mcpClient, mcpServer } from '../../src/ai/mcp/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { memoryStore, session } from '../../src/ai/session/index.ts';
import { ask, busy, spin } from './fixtures/isolated-tools.ts';

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

  it('an agent suspends on ctx.suspend() in a worker and resumes it with the answer', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'q', name: 'ask', args: {} }] },
      'Red it is.',
    ]);
    const bot = agent({ model, tools: [ask] });
    const first = await bot.generate('pick');
    expect(first.status === 'suspended' && first.pending).toEqual([
      expect.objectContaining({
        kind: 'suspend',
        toolCallId: 'q',
        reason: 'need a colour',
        payload: { choices: ['red', 'blue'] },
      }),
    ]);
    const done = await bot.resume(first.state, { q: { resume: 'red' } });
    expect(done.status).toBe('done');
    if (done.status !== 'done') return;
    expect(done.steps.at(-2)?.toolResults).toEqual([
      { type: 'tool_result', toolCallId: 'q', content: 'chose red' },
    ]);
  });

  it('a session run suspends in a worker and its resume reaches the worker', async () => {
    const model = scriptedModel([{ toolCalls: [{ id: 'q', name: 'ask', args: {} }] }, 'Blue.']);
    const runs = session({ store: memoryStore(), agent: agent({ model, tools: [ask] }) });
    const run = await runs.start('pick');
    if (run.status !== 'suspended') throw new Error(`expected suspended, got ${run.status}`);
    expect(run.pending[0]).toMatchObject({ kind: 'suspend', reason: 'need a colour' });
    expect(await runs.resume(run.pending[0].token!, 'blue')).toMatchObject({
      status: 'done',
      text: 'Blue.',
    });
  });
});
