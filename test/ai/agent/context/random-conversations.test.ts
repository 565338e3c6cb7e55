/**
 * Many seeded random conversations — exchanges with and without tool loops, several
 * calls per turn, system messages, long and short results — under random budgets and
 * strategy lists: every request sent fits, starts with a user message, sends the
 * latest user message, and pairs every tool call with its result; or the run fails
 * with CONTEXT_OVERFLOW before sending anything too long.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentError,
  agent,
  type ContextStrategy,
  clearToolResults,
  summarize,
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

/** mulberry32: a small seeded generator, so a failure names a seed that replays it. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fetchTool = tool({
  name: 'fetch',
  description: 'Fetch.',
  parameters: v.object({ size: v.number() }),
  execute: ({ size }: { size: number }) => `fetched: ${'abc '.repeat(size)}`,
});

function history(rand: () => number): ModelMessage[] {
  const messages: ModelMessage[] = [];
  if (rand() < 0.3) messages.push({ role: 'system', content: 'House rules.' });
  const exchanges = 1 + Math.floor(rand() * 12);
  for (let e = 0; e < exchanges; e++) {
    messages.push({ role: 'user', content: `Q${e} ${'word '.repeat(Math.floor(rand() * 150))}` });
    const loops = Math.floor(rand() * 4);
    for (let l = 0; l < loops; l++) {
      const calls = 1 + Math.floor(rand() * 3);
      const ids = Array.from({ length: calls }, (_, c) => `h${e}_${l}_${c}`);
      messages.push({
        role: 'assistant',
        content: ids.map((id) => ({
          type: 'tool_use' as const,
          id,
          name: 'fetch',
          args: { size: 1 },
        })),
      });
      messages.push({
        role: 'user',
        content: ids.map((id) => ({
          type: 'tool_result' as const,
          toolCallId: id,
          content: `old: ${'xyz '.repeat(Math.floor(rand() * 400))}`,
        })),
      });
    }
    messages.push({
      role: 'assistant',
      content: `A${e} ${'word '.repeat(Math.floor(rand() * 100))}`,
    });
  }
  messages.push({ role: 'user', content: `Latest ${'word '.repeat(Math.floor(rand() * 40))}` });
  return messages;
}

function strategies(rand: () => number): ContextStrategy[] {
  const pool = [
    () => clearToolResults({ keep: Math.floor(rand() * 4), olderThan: Math.floor(rand() * 3) }),
    () =>
      summarize({
        model: scriptedModel(Array(20).fill('Short summary.')),
        keepLast: Math.floor(rand() * 6),
      }),
    () => trimOldest({ keep: Math.floor(rand() * 3) }),
  ];
  const list = pool.filter(() => rand() < 0.6).map((make) => make());
  return list.length > 0 ? list : [trimOldest()];
}

describe('random conversations under random budgets', () => {
  for (let seed = 1; seed <= 60; seed++) {
    it(`seed ${seed}`, async () => {
      const rand = random(seed);
      const input = history(rand);
      const loop = Math.floor(rand() * 6);
      const turns: ScriptedTurn[] = [
        ...Array.from({ length: loop }, () => ({
          toolCalls: Array.from({ length: 1 + Math.floor(rand() * 2) }, () => ({
            name: 'fetch',
            args: { size: Math.floor(rand() * 500) },
          })),
        })),
        'Done.',
      ];
      const model = scriptedModel(turns);
      const maxTokens = 600 + Math.floor(rand() * 4_000);
      const bot = agent({
        model,
        instructions: 'Be brief.',
        tools: [fetchTool],
        stopWhen: [],
        context: { maxTokens, strategy: strategies(rand) },
      });
      const latest = input.at(-1)!;
      try {
        const result = await bot.generate(input);
        expect(result.status).toBe('done');
        if (result.status === 'done') expect(result.messages.slice(0, input.length)).toEqual(input);
      } catch (error) {
        expect(error, `seed ${seed}`).toBeInstanceOf(AgentError);
        expect((error as AgentError).code).toBe('CONTEXT_OVERFLOW');
      }
      for (const request of model.requests) {
        expect(estimateTokens(request, model), `seed ${seed}`).toBeLessThanOrEqual(maxTokens);
        expectPaired(request);
        expect(request.messages).toContainEqual(latest);
      }
    });
  }
});
