import { describe, expect, it } from 'vitest';
import {
  addCosts,
  checkPrices,
  findPrice,
  modelFamily,
  PRICES_WRITTEN,
  priceUsage,
  SHIPPED_PRICES,
  usageCost,
} from '../../../src/ai/model/index.ts';

const usage = (input: number, output: number, extra = {}) => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
  ...extra,
});

describe('the shipped price table', () => {
  it('is dated and prices current OpenAI, Anthropic and Gemini models with valid rates', () => {
    expect(PRICES_WRITTEN).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const family of ['gpt-4.1', 'gpt-5.4-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro']) {
      expect(SHIPPED_PRICES[family]).toBeDefined();
    }
    // the table passes the same check as a caller's
    expect(() => checkPrices({ ...SHIPPED_PRICES }, 'shipped')).not.toThrow();
    expect(Object.isFrozen(SHIPPED_PRICES)).toBe(true);
    expect(Object.getPrototypeOf(SHIPPED_PRICES)).toBeNull();
  });
});

describe('modelFamily and findPrice', () => {
  it('strips the provider and one date or release suffix, nothing else', () => {
    expect(modelFamily('openai:gpt-4.1-2025-04-14')).toBe('gpt-4.1');
    expect(modelFamily('gpt-4.1-mini-2025-04-14')).toBe('gpt-4.1-mini');
    expect(modelFamily('anthropic:claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
    expect(modelFamily('claude-3-5-haiku-latest')).toBe('claude-3-5-haiku');
    expect(modelFamily('gemini-2.5-flash-preview-05-20')).toBe('gemini-2.5-flash');
    expect(modelFamily('gpt-4.1-mini')).toBe('gpt-4.1-mini');
    expect(modelFamily('gemini:models/gemini-2.5-pro')).toBe('gemini-2.5-pro');
  });

  it('matches a dated snapshot to its family, never a longer name to a shorter one', () => {
    expect(findPrice('openai:gpt-4.1-2025-04-14')).toBe(SHIPPED_PRICES['gpt-4.1']);
    expect(findPrice('openai:gpt-4.1-mini')).toBe(SHIPPED_PRICES['gpt-4.1-mini']);
    expect(findPrice('openai:gpt-4.1-turbo-ultra')).toBeUndefined();
    expect(findPrice('scripted')).toBeUndefined();
  });

  it("searches the caller's table first, at every level, then the shipped one", () => {
    const prices = checkPrices(
      { 'gpt-4.1': { input: 1, output: 1 }, 'acme:gpt-4.1': { input: 9, output: 9 } },
      'prices',
    );
    expect(findPrice('openai:gpt-4.1-2025-04-14', prices)?.input).toBe(1);
    expect(findPrice('acme:gpt-4.1', prices)?.input).toBe(9);
    expect(findPrice('openai:gpt-4o', prices)).toBe(SHIPPED_PRICES['gpt-4o']);
  });
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
