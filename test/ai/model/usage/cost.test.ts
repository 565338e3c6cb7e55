import { describe, expect, it } from 'vitest';
import { addCosts, priceUsage, SHIPPED_PRICES, usageCost } from '../../../../src/ai/model/index.ts';

const usage = (input: number, output: number, extra = {}) => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
  ...extra,
});

describe('priceUsage', () => {
  it('prices cached, cache-write and reasoning tokens as parts of input and output', () => {
    const price = { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75, reasoning: 20 };
    const u = usage(1_000_000, 1_000_000, {
      cachedInputTokens: 500_000,
      cacheWriteTokens: 100_000,
      reasoningTokens: 250_000,
    });
    // 400k × 3 + 500k × 0.3 + 100k × 3.75 + 750k × 15 + 250k × 20 (per million)
    expect(priceUsage(u, price)).toBe(1.2 + 0.15 + 0.375 + 11.25 + 5);
  });

  it('prices cached tokens at the input rate when the price has no cached rate', () => {
    expect(
      priceUsage(usage(1_000_000, 0, { cachedInputTokens: 1_000_000 }), { input: 2, output: 8 }),
    ).toBe(2);
  });

  it('uses the `above` rates on every token of a request over the threshold (Gemini Pro)', () => {
    const price = SHIPPED_PRICES['gemini-2.5-pro'];
    expect(priceUsage(usage(200_000, 0), price)).toBe(0.25);
    expect(priceUsage(usage(200_001, 1_000_000), price)).toBe(0.5000025 + 15);
  });

  it('rounds to the nano-dollar and is never thrown by odd counts', () => {
    // 1 × 0.075 + 1 × 0.0375 = 112.5 nano-dollars, rounded half up
    expect(priceUsage(usage(1, 1), { input: 0.075, output: 0.0375 })).toBe(1.13e-7);
    expect(priceUsage(usage(1, 0), { input: 0.0004, output: 0 })).toBe(0); // 0.4 nano-dollars
    expect(priceUsage(usage(7, 0), { input: 0.075, output: 0 })).toBe(5.25e-7);
    expect(priceUsage(usage(Number.NaN, -5), { input: 1, output: 1 })).toBe(0);
  });
});

describe('usageCost and addCosts', () => {
  it("says 'unknown' for a model without a price, never 0", () => {
    expect(usageCost('acme:homegrown', usage(0, 0))).toBe('unknown');
    expect(usageCost('openai:gpt-4.1', usage(10_000, 2_000))).toBe(0.036);
  });

  it('adds exactly, whatever the grouping', () => {
    const steps = Array.from({ length: 1000 }, (_, i) =>
      priceUsage(usage(1234 + i, 567 + i), { input: 0.15, output: 0.6, cachedInput: 0.075 }),
    );
    const leftToRight = steps.reduce<number | 'unknown'>((sum, c) => addCosts(sum, c), 0);
    const halves = addCosts(
      steps.slice(0, 333).reduce<number | 'unknown'>((sum, c) => addCosts(sum, c), 0),
      steps.slice(333).reduce<number | 'unknown'>((sum, c) => addCosts(sum, c), 0),
    );
    expect(halves).toBe(leftToRight);
    expect(addCosts(0.1, 0.2)).toBe(0.3);
    expect(addCosts(0.1, 'unknown')).toBe('unknown');
  });
});
