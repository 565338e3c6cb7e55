/** The run option `onEvent`: generate, resume and step report the events stream() yields. */
import { describe, expect, it } from 'vitest';
import { AgentError, type AgentEvent, agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';

const remove = tool({
  name: 'remove_file',
  description: 'Delete a file.',
  parameters: v.object({ path: v.string() }),
  requiresApproval: true,
  execute: async ({ path }: { path: string }) => `deleted ${path}`,
});

const script = () =>
  scriptedModel([
    {
      reasoning: 'Deleting is asked.',
      toolCalls: [{ id: 'c1', name: 'remove_file', args: { path: 'a' } }],
    },
    'Deleted a.',
  ]);

/** What a test compares: each event's type, with the text of deltas. */
const shape = (events: AgentEvent[]) =>
  events.map((e) => ('text' in e && e.type.endsWith('-delta') ? `${e.type}:${e.text}` : e.type));

describe('onEvent', () => {
  it('generate and resume report what stream() yields, deltas and finish included', async () => {
    const streamed: AgentEvent[] = [];
    const bot = agent({ model: script(), tools: [remove] });
    const run = bot.stream('Delete a');
    for await (const event of run) streamed.push(event);
    const first = await run.result;

    const reported: AgentEvent[] = [];
    const twin = agent({ model: script(), tools: [remove] });
    const generated = await twin.generate('Delete a', { onEvent: (e) => reported.push(e) });
    expect(shape(reported)).toEqual(shape(streamed));
    expect(shape(reported)).toContain('reasoning-delta:Deleting is asked.');
    expect(reported.at(-1)).toEqual({ type: 'finish', result: generated });
    expect(first.status).toBe('suspended');

    const resumed: AgentEvent[] = [];
    if (generated.status !== 'suspended') throw new Error('expected a suspension');
    const done = await twin.resume(
      generated.state,
      { c1: { approve: true } },
      {
        onEvent: (e) => resumed.push(e),
      },
    );
    expect(shape(resumed)).toEqual([
      'tool-result',
      'step-finish',
      'step-start',
      'text-delta:Deleted a.',
      'step-finish',
      'finish',
    ]);
    expect(resumed.at(-1)).toEqual({ type: 'finish', result: done });
  });

  it('step reports its events, and finish only when the run ended', async () => {
    const bot = agent({
      model: scriptedModel([{ toolCalls: [{ name: 'noop', args: {} }] }, 'ok']),
      tools: [
        tool({
          name: 'noop',
          description: 'No-op.',
          parameters: v.object({}),
          execute: () => 'done',
        }),
      ],
    });
    const events: AgentEvent[] = [];
    const first = await bot.step('Go', { onEvent: (e) => events.push(e) });
    expect(first.status).toBe('running');
    expect(events.map((e) => e.type)).not.toContain('finish');
    if (first.status !== 'running') return;
    events.length = 0;
    const second = await bot.step(first.state, { onEvent: (e) => events.push(e) });
    expect(events.map((e) => e.type)).toContain('text-delta');
    expect(events.at(-1)).toEqual({ type: 'finish', result: second });
  });

  it('a throwing onEvent fails the run; a non-function is refused', async () => {
    const bot = agent({ model: scriptedModel(['Hi']) });
    await expect(
      bot.generate('Hi', {
        onEvent: () => {
          throw new Error('observer broke');
        },
      }),
    ).rejects.toThrow('observer broke');
    const bad = bot.generate('Hi', { onEvent: 'yes' as never });
    await expect(bad).rejects.toThrow(AgentError);
    await expect(bad).rejects.toThrow('run options.onEvent: expected a function, received');
  });
});
