import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { v } from '../../../src/validate/index.ts';
import { echoTool } from './helpers.ts';

describe('agent.asTool', () => {
  it('runs the inner agent on the input and returns its final text', async () => {
    const inner = scriptedModel(['Paris.']);
    const researcher = agent({ model: inner, name: 'researcher' });
    const research = researcher.asTool({ description: 'Research a question.' });
    expect(research.name).toBe('researcher');
    expect(research.toToolDefinition()).toMatchObject({
      name: 'researcher',
      description: 'Research a question.',
      parameters: { type: 'object', properties: { input: { type: 'string' } } },
    });
    const outer = scriptedModel([
      { toolCalls: [{ id: 't', name: 'researcher', args: { input: 'Capital of France?' } }] },
      'It is Paris.',
    ]);
    const result = await agent({ model: outer, tools: [research] }).generate('Capital?', {
      runId: 'outer',
    });
    expect(inner.requests[0].messages).toEqual([{ role: 'user', content: 'Capital of France?' }]);
    expect(result.status === 'done' && result.steps[0].toolResults[0].content).toBe('Paris.');
  });

  it('sends the arguments as JSON when given an input schema', async () => {
    const inner = scriptedModel(['Booked.']);
    const booker = agent({ model: inner }).asTool({
      name: 'book',
      description: 'Book a table.',
      input: v.object({ people: v.number() }),
    });
    const outer = scriptedModel([{ toolCalls: [{ name: 'book', args: { people: 2 } }] }, 'Ok.']);
    await agent({ model: outer, tools: [booker] }).generate('Book for two');
    expect(inner.requests[0].messages).toEqual([{ role: 'user', content: '{"people":2}' }]);
  });

  it('suspends the outer run when the inner one waits, and resumes it with { state, decisions }', async () => {
    const remove = echoTool({ name: 'remove', requiresApproval: true });
    const inner = agent({
      model: scriptedModel([
        { toolCalls: [{ id: 'in', name: 'remove', args: { text: 'tmp' } }] },
        'Cleaned.',
      ]),
      tools: [remove],
      name: 'janitor',
    });
    const outer = agent({
      model: scriptedModel([
        { toolCalls: [{ id: 'out', name: 'janitor', args: { input: 'clean tmp' } }] },
        'All clean.',
      ]),
      tools: [inner.asTool({ description: 'Cleans up.' })],
    });
    const first = await outer.generate('clean', { runId: 'r' });
    expect(first.status).toBe('suspended');
    if (first.status !== 'suspended') return;
    const payload = first.pending[0].payload as {
      pending: { toolCallId: string }[];
      state: unknown;
    };
    expect(first.pending[0]).toMatchObject({ kind: 'suspend', toolName: 'janitor' });
    expect(payload.pending.map((p) => p.toolCallId)).toEqual(['in']);
    const result = await outer.resume(JSON.parse(JSON.stringify(first.state)), {
      out: { resume: { state: payload.state, decisions: { in: { approve: true } } } },
    });
    expect(result.status === 'done' && result.text).toBe('All clean.');
    expect(remove.calls[0].ctx.runId).toBe('r:out');
  });

  it('refuses options without a description', () => {
    expect(() => agent({ model: scriptedModel([]) }).asTool({} as never)).toThrow(
      'asTool(options): expected { name?, description: string, input? }',
    );
  });
});
