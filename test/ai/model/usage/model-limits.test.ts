import { describe, expect, it } from 'vitest';
import {
  anthropic,
  gemini,
  ModelError,
  openai,
  scriptedModel,
} from '../../../../src/ai/model/index.ts';

const key = { apiKey: 'test-key' };

describe('model.limits', () => {
  it('comes from the shipped table for every built-in adapter, dated variants included', () => {
    expect(openai({ model: 'gpt-4o', ...key }).limits).toEqual({
      contextWindow: 128_000,
      maxOutput: 16_384,
    });
    expect(openai({ model: 'gpt-4.1-mini-2025-04-14', api: 'chat', ...key }).limits).toEqual({
      contextWindow: 1_047_576,
      maxOutput: 32_768,
    });
    expect(openai({ model: 'gpt-4o-2024-05-13', ...key }).limits?.maxOutput).toBe(4_096);
    expect(openai({ model: 'gpt-5-chat-latest', ...key }).limits?.contextWindow).toBe(128_000);
    expect(anthropic({ model: 'claude-sonnet-4-5-20250929', ...key }).limits).toEqual({
      contextWindow: 200_000,
      maxOutput: 64_000,
    });
    expect(anthropic({ model: 'claude-opus-4-1', ...key }).limits?.maxOutput).toBe(32_000);
    expect(gemini({ model: 'models/gemini-2.5-flash', ...key }).limits).toEqual({
      contextWindow: 1_048_576,
      maxOutput: 65_536,
    });
    expect(gemini({ model: 'gemini-2.0-flash-lite', ...key }).limits?.maxOutput).toBe(8_192);
  });

  it('marks a name the table does not know as assumed: its family’s floor, or the conservative default', () => {
    // claude-opus-4-7 is not claude-opus-4 with a suffix: a one-digit segment is a version.
    expect(anthropic({ model: 'claude-opus-4-7', ...key }).limits).toEqual({
      contextWindow: 200_000,
      maxOutput: 8_192,
      assumed: true,
    });
    expect(gemini({ model: 'gemini-9-ultra', ...key }).limits).toEqual({
      contextWindow: 1_048_576,
      maxOutput: 8_192,
      assumed: true,
    });
    expect(openai({ model: 'llama3.2', baseURL: 'http://127.0.0.1:11434/v1' }).limits).toEqual({
      contextWindow: 8_192,
      maxOutput: 4_096,
      assumed: true,
    });
    expect(scriptedModel([]).limits).toEqual({
      contextWindow: 8_192,
      maxOutput: 4_096,
      assumed: true,
    });
    expect(scriptedModel([], { id: 'anthropic:claude-haiku-4-5' }).limits).toEqual({
      contextWindow: 200_000,
      maxOutput: 64_000,
    });
  });

  it('takes the limits option over the table, either field alone, the output never above the window', () => {
    expect(openai({ model: 'gpt-4o', limits: { contextWindow: 4_096 }, ...key }).limits).toEqual({
      contextWindow: 4_096,
      maxOutput: 4_096,
    });
    expect(
      anthropic({
        model: 'claude-next',
        limits: { contextWindow: 500_000, maxOutput: 50_000 },
        ...key,
      }).limits,
    ).toEqual({ contextWindow: 500_000, maxOutput: 50_000 });
    expect(
      gemini({ model: 'gemini-2.5-pro', limits: { maxOutput: 1_000 }, ...key }).limits,
    ).toEqual({ contextWindow: 1_048_576, maxOutput: 1_000 });
    expect(scriptedModel([], { limits: { contextWindow: 4_096, maxOutput: 512 } }).limits).toEqual({
      contextWindow: 4_096,
      maxOutput: 512,
    });
  });

  it('refuses a bad limits option when the model is created, naming what was expected', () => {
    const make = (limits: unknown) => () =>
      openai({ model: 'gpt-4o', limits: limits as never, ...key });
    expect(make('128k')).toThrow(
      /openai\(options\)\.limits: expected \{ contextWindow\?: number, maxOutput\?: number \}, received string "128k"/,
    );
    expect(make({ contextWindow: -1 })).toThrow(
      /openai\(options\)\.limits\.contextWindow: expected a positive integer number of tokens, received number -1/,
    );
    expect(make({ contextWindow: 1.5 })).toThrow(RangeError);
    expect(make({ maxOutput: Number.NaN })).toThrow(
      /limits\.maxOutput: expected a positive integer/,
    );
    expect(make({ contextWindow: '4096' })).toThrow(/received string "4096"/);
    expect(make({ contextWindow: 1_000, maxOutput: 2_000 })).toThrow(
      /limits\.maxOutput: expected at most contextWindow \(1000\), received 2000/,
    );
    expect(make({ contextWindw: 1_000 })).toThrow(ModelError);
    expect(make({ contextWindw: 1_000 })).toThrow(
      /unknown option "contextWindw"; did you mean "contextWindow"\?/,
    );
    expect(() => scriptedModel([], { limits: null as never })).toThrow(
      /scriptedModel\(options\)\.limits: expected/,
    );
    // Only own fields count: an inherited one cannot set the limits.
    const inherited = Object.create({ contextWindow: 1 });
    expect(anthropic({ model: 'claude-sonnet-4-5', limits: inherited, ...key }).limits).toEqual({
      contextWindow: 200_000,
      maxOutput: 64_000,
    });
  });
});
