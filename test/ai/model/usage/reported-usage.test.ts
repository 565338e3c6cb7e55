import { describe, expect, it } from 'vitest';
import type { GenerateResult } from '../../../../src/ai/model/index.ts';
import { settleUsage, wireCount } from '../../../../src/ai/model/usage/index.ts';

const request = { messages: [{ role: 'user' as const, content: 'Weather in Oslo?' }] };
const resultWith = (usage: GenerateResult['usage']): GenerateResult => ({
  message: { role: 'assistant', content: [{ type: 'text', text: 'Sunny and mild.' }] },
  text: 'Sunny and mild.',
  toolCalls: [],
  stopReason: 'end',
  usage,
});

describe('wireCount', () => {
  it('keeps counts, leaves absent values out, and marks anything else NaN', () => {
    expect([0, 12, Number.MAX_SAFE_INTEGER].map(wireCount)).toEqual([
      0,
      12,
      Number.MAX_SAFE_INTEGER,
    ]);
    expect([undefined, null].map(wireCount)).toEqual([undefined, undefined]);
    for (const bad of [-1, 1.5, 1e308, Number.POSITIVE_INFINITY, '12', true, {}]) {
      expect(wireCount(bad)).toBeNaN();
    }
  });
});

describe('settleUsage', () => {
  it('leaves honest counts and the result alone', () => {
    const result = resultWith({
      inputTokens: 9,
      outputTokens: 4,
      totalTokens: 13,
      cachedInputTokens: 2,
    });
    settleUsage(result, request, 'openai:gpt-4o');
    expect(result.usage).toEqual({
      inputTokens: 9,
      outputTokens: 4,
      totalTokens: 13,
      cachedInputTokens: 2,
    });
    expect(result.warnings).toBeUndefined();
  });

  it('estimates what is not a count, drops bad parts, and raises a total below its parts', () => {
    const result = resultWith({
      inputTokens: Number.NaN,
      outputTokens: -3,
      totalTokens: 2,
      reasoningTokens: Number.NaN,
    });
    result.warnings = [{ message: 'earlier' }];
    settleUsage(result, request, 'openai:gpt-4o');
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 7, totalTokens: 17 });
    expect(result.warnings).toEqual([
      { message: 'earlier' },
      {
        message:
          'usage: the provider reported token counts that are not non-negative integers (or a total below its parts): inputTokens is estimated (10), outputTokens is estimated (7), reasoningTokens is left out, totalTokens is their sum (17)',
      },
    ]);
  });
});
