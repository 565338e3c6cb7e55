/**
 * Hostile input to the token estimate (decision 141): texts that make byte-pair encoding
 * quadratic, a huge text, deep nesting, cycles and junk. Each must come back with a
 * count (never a crash, never minutes of work: a regression shows as the test's timeout).
 */
import { createRequire } from 'node:module';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import {
  countTokens,
  estimateMessageTokens,
  estimateTokens,
  type ModelMessage,
  scriptedModel,
} from '../../src/ai/model/index.ts';

const GPT = 'openai:gpt-4o';
const user = (content: ModelMessage['content']): ModelMessage => ({ role: 'user', content });

describe('estimateMessageTokens on hostile text', () => {
  it.each([
    ['one letter repeated', 'a'.repeat(60_000)],
    ['accented letters without spaces', 'éa'.repeat(30_000)],
    ['Japanese without spaces', '漢字かな交じり文'.repeat(7_000)],
    ['punctuation and emoji', '!😀'.repeat(20_000)],
    ['spaces only', ' '.repeat(60_000)],
    ['newlines only', '\n'.repeat(60_000)],
    ['lone surrogates', '\ud800'.repeat(30_000)],
  ])('counts %s in bounded work, never below the tokenizer by more than 1%%', (_, text) => {
    const estimate = estimateMessageTokens(user(text), GPT) - 3;
    // The exact count, in 1,000-character slices so the reference itself stays fast.
    let exact = 0;
    for (let i = 0; i < text.length; i += 1000) {
      exact += encode(text.slice(i, i + 1000), { disallowedSpecial: new Set() }).length;
    }
    expect(estimate).toBeGreaterThanOrEqual(Math.floor(exact * 0.99));
    // At most one token more per 64 characters, beyond the slices' own boundary error.
    expect(estimate).toBeLessThanOrEqual(exact + Math.ceil(text.length / 64) + 60);
  });

  it('counts a 20 MB tool result from samples, proportionally', () => {
    const block = 'Row 17: shipped to Oslo, 4 items, signed. ';
    const huge = block.repeat(Math.ceil((20 * 1024 * 1024) / block.length));
    const estimate = estimateMessageTokens(
      user([{ type: 'tool_result', toolCallId: 'c', content: huge }]),
      GPT,
    );
    const perBlock = encode(block.repeat(100)).length / 100;
    const expected = (huge.length / block.length) * perBlock;
    expect(estimate).toBeGreaterThanOrEqual(expected * 0.99);
    expect(estimate).toBeLessThanOrEqual(expected * 1.03);
  });

  it('keeps the tokenizer’s merge cache at 10,000 pieces however many unique words it sees', () => {
    // 100,000 unique words, in messages short enough to be counted whole.
    for (let m = 0; m < 25; m++) {
      const words = Array.from({ length: 4_000 }, (_, i) => `zq${(m * 4_000 + i).toString(36)}xv`);
      expect(estimateMessageTokens(user(words.join(' ')), GPT)).toBeGreaterThan(4_000);
    }
    // The very module instance the estimate loads (Node's require cache), its cache inspected.
    const loaded = createRequire(import.meta.url)('gpt-tokenizer/cjs/encoding/o200k_base');
    const cache: Map<string, unknown> = loaded.default.bytePairEncodingCoreProcessor.mergeCache;
    expect(cache.size).toBeGreaterThan(9_000);
    expect(cache.size).toBeLessThanOrEqual(10_000);
  });

  it('survives nesting, cycles and junk parts without throwing', () => {
    let nested: ModelMessage['content'] = 'deep';
    for (let i = 0; i < 10_000; i++) {
      nested = [{ type: 'tool_result', toolCallId: `c${i}`, content: nested }];
    }
    expect(estimateMessageTokens(user(nested), GPT)).toBeGreaterThan(0);
    const cycle: Record<string, unknown> = { type: 'mystery' };
    cycle.self = cycle;
    const junk = [
      null,
      42,
      'bare string',
      cycle,
      { type: 'image' },
      { type: 'audio', data: 7 },
      { type: 'document', mediaType: 'text/plain', data: '%%%not base64%%%' },
      { type: 'tool_use', id: 1, name: null, args: 10n },
      { type: 'reasoning', redacted: {} },
    ];
    expect(estimateMessageTokens(user(junk as never), GPT)).toBeGreaterThan(0);
    const protoKeys = JSON.parse(
      '{"type":"tool_use","id":"x","name":"__proto__","args":{"__proto__":{"polluted":1}}}',
    );
    expect(estimateMessageTokens(user([protoKeys]), GPT)).toBeGreaterThan(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a request that is not one, and a count from a model that lies', async () => {
    expect(() => estimateTokens({ messages: 'hi' } as never)).toThrow(TypeError);
    const model = { ...scriptedModel([]), countTokens: async () => -1 };
    await expect(countTokens(model, { messages: [user('hi')] })).rejects.toThrow(
      /expected a non-negative integer, received number -1/,
    );
  });
});
