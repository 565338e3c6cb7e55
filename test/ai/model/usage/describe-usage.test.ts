import { describe, expect, it } from 'vitest';
import { describeUsage } from '../../../../src/ai/model/index.ts';

describe('describeUsage', () => {
  it('names the cached, cache-write and reasoning parts, and the cost in plain dollars', () => {
    expect(
      describeUsage({
        inputTokens: 2000,
        outputTokens: 300,
        totalTokens: 2300,
        cachedInputTokens: 1500,
        cacheWriteTokens: 100,
        reasoningTokens: 200,
        cost: 0.000000001,
      }),
    ).toBe(
      '2000 in (1500 cached, 100 cache write), 300 out (200 reasoning), 2300 tokens, $0.000000001',
    );
    expect(describeUsage({ inputTokens: 0, outputTokens: 0, totalTokens: 0, cost: 0 })).toBe(
      '0 in, 0 out, 0 tokens, $0',
    );
    expect(describeUsage({ inputTokens: 1, outputTokens: 1, totalTokens: 2, cost: 12.5 })).toBe(
      '1 in, 1 out, 2 tokens, $12.5',
    );
    expect(describeUsage({ inputTokens: 1, outputTokens: 1, totalTokens: 2 })).toBe(
      '1 in, 1 out, 2 tokens',
    );
  });

  it('never throws on a damaged stored usage', () => {
    expect(describeUsage(null as never)).toBe('? in, ? out, ? tokens');
    expect(
      describeUsage({
        inputTokens: '5',
        outputTokens: Number.NaN,
        totalTokens: 1,
        cost: 'x',
      } as never),
    ).toBe('? in, ? out, 1 tokens');
  });
});
