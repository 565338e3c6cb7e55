import { describe, expect, it } from 'vitest';
import { AgentError, agent } from '../../src/ai/agent/index.ts';
import { checkPrices, MAX_PRICE_ENTRIES, scriptedModel } from '../../src/ai/model/index.ts';

const model = () => scriptedModel(['Hi'], { id: 'acme:small' });

const refusal = (prices: unknown) => {
  try {
    agent({ model: model(), prices: prices as never });
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('INVALID_ARGUMENT');
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('hostile price tables', () => {
  it('refuses negative, NaN, infinite, string and missing rates, naming the entry and field', () => {
    expect(refusal({ small: { input: -1, output: 1 } })).toMatch(
      /agent\(options\)\.prices\["small"\]\.input: expected a number of USD per million tokens, 0 to 1000000, received .*-1/,
    );
    expect(refusal({ small: { input: Number.NaN, output: 1 } })).toMatch(/\.input: .*NaN/);
    expect(refusal({ small: { input: 1, output: Infinity } })).toMatch(/\.output: .*Infinity/);
    expect(refusal({ small: { input: '2', output: 1 } })).toMatch(/\.input: .*string/);
    expect(refusal({ small: { input: 1 } })).toMatch(/\.output: .*undefined/);
    expect(refusal({ small: { input: 1, output: 1, cachedInput: -0.5 } })).toMatch(/\.cachedInput/);
    expect(refusal({ small: { input: 1, output: 1, cached: 0.5 } })).toMatch(
      /prices\["small"\]: unknown option "cached"; expected one of input, output, cachedInput/,
    );
    expect(refusal({ small: { input: 1, output: 1, above: { input: 2, output: 2 } } })).toMatch(
      /\.above\.inputTokens: expected a positive integer/,
    );
  });

  it('refuses non-objects for the table and its entries', () => {
    expect(refusal('cheap')).toMatch(/prices: expected an object of prices by model/);
    expect(refusal([{ input: 1, output: 1 }])).toMatch(/prices: expected an object/);
    expect(refusal({ small: null })).toMatch(/prices\["small"\]: expected \{ input, output/);
  });

  it('refuses __proto__, constructor and prototype keys, and pollutes no prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"input": 1, "output": 1, "polluted": true}}');
    expect(refusal(parsed)).toMatch(/received the key "__proto__"/);
    expect(refusal({ constructor: { input: 1, output: 1 } })).toMatch(/the key "constructor"/);
    const table = checkPrices(JSON.parse('{"small": {"input": 1, "output": 1}}'), 'prices');
    expect(Object.getPrototypeOf(table)).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).input).toBeUndefined();
  });

  it('refuses a table over the entry limit', () => {
    const big = Object.fromEntries(
      Array.from({ length: MAX_PRICE_ENTRIES + 1 }, (_, i) => [`m${i}`, { input: 1, output: 1 }]),
    );
    expect(refusal(big)).toMatch(`expected at most ${MAX_PRICE_ENTRIES} models`);
  });

  it('keeps a frozen copy: changing the caller object later changes nothing', async () => {
    const prices = { small: { input: 1_000_000, output: 0 } };
    const bot = agent({
      model: scriptedModel([{ text: 'Hi', usage: { inputTokens: 1 } }], { id: 'acme:small' }),
      prices,
    });
    prices.small.input = 0;
    const result = await bot.generate('Hello');
    expect(result.status === 'done' && result.usage.cost).toBe(1);
  });

  it('refuses a stored state whose usage.cost is not a cost, before anything runs', async () => {
    const bot = agent({ model: scriptedModel(['Hi'], { id: 'acme:small' }) });
    const done = await bot.generate('Hello');
    for (const cost of [-1, Number.NaN, '0.5', {}, Infinity]) {
      const state = { ...done.state, usage: { ...done.state.usage, cost } };
      await expect(bot.resume(state as never)).rejects.toMatchObject({
        code: 'INVALID_STATE',
        message: expect.stringMatching(
          /state\.usage\.cost: expected a number of USD ≥ 0, 'unknown' or absent/,
        ),
      });
    }
  });
});
