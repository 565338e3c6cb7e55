/**
 * A conversation far longer than the window: 30 user messages, each answered after 9
 * tool calls (300 model turns), under a 4,000-token budget. Every request the model
 * received fits and pairs every tool call with its result; the run states keep it all.
 */
import { describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  agent,
  clearToolResults,
  trimOldest,
} from '../../../../src/ai/agent/index.ts';
import {
  estimateTokens,
  type ModelMessage,
  type ScriptedTurn,
  scriptedModel,
} from '../../../../src/ai/model/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';
import { expectPaired } from './requests.ts';

const USERS = 30;
const CALLS_PER_ANSWER = 9;
const WINDOW = 4_000;

const lookup = tool({
  name: 'lookup',
  description: 'Look a record up.',
  parameters: v.object({ n: v.number() }),
  execute: ({ n }: { n: number }) => `record ${n}: ${'field=value; '.repeat(60)}`,
});

describe('a 300-turn conversation under a 4k-token window', () => {
  it('sends every request within the budget, with every tool_use paired, and keeps the whole history', async () => {
    const turns: ScriptedTurn[] = [];
    for (let u = 0; u < USERS; u++) {
      for (let c = 0; c < CALLS_PER_ANSWER; c++) {
        turns.push({ toolCalls: [{ id: `u${u}c${c}`, name: 'lookup', args: { n: u * 100 + c } }] });
      }
      turns.push(`Answer ${u}: ${'done '.repeat(20)}`);
    }
    const model = scriptedModel(turns);
    const bot = agent({
      model,
      instructions: 'You are a records clerk.',
      tools: [lookup],
      stopWhen: [],
      context: { maxTokens: WINDOW, strategy: [clearToolResults({ keep: 2 }), trimOldest()] },
    });
    let messages: ModelMessage[] = [];
    const contextEvents: AgentEvent[] = [];
    for (let u = 0; u < USERS; u++) {
      const run = bot.stream([...messages, { role: 'user', content: `Question ${u}?` }]);
      for await (const event of run) if (event.type === 'context') contextEvents.push(event);
      const result = await run.result;
      expect(result.status).toBe('done');
      if (result.status !== 'done') return;
      messages = result.messages;
    }
    expect(model.requests).toHaveLength(USERS * (CALLS_PER_ANSWER + 1));
    expect(messages).toHaveLength(USERS * (2 + 2 * CALLS_PER_ANSWER));
    for (const [i, request] of model.requests.entries()) {
      const tokens = estimateTokens(request, model);
      expect(tokens, `request ${i}`).toBeLessThanOrEqual(WINDOW);
      expectPaired(request);
      const last = request.messages.at(-1)!;
      // The latest user message is always sent.
      const question = `Question ${Math.floor(i / (CALLS_PER_ANSWER + 1))}?`;
      expect(
        request.messages.some((m) => m.content === question),
        `request ${i}`,
      ).toBe(true);
      expect(last.role).toBe('user');
    }
    // The whole history would not have fit: the window did work.
    expect(estimateTokens({ messages }, model)).toBeGreaterThan(10 * WINDOW);
    expect(contextEvents.length).toBeGreaterThan(0);
    const late = contextEvents.at(-1) as Extract<AgentEvent, { type: 'context' }>;
    expect(late.dropped).toBeGreaterThan(0);
    expect(late.tokens.after).toBeLessThanOrEqual(WINDOW);
  });
});
