import { describe, expect, it } from 'vitest';
import {
  checkPrices,
  findPrice,
  modelFamily,
  PRICES_WRITTEN,
  SHIPPED_PRICES,
} from '../../../../src/ai/model/index.ts';

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
