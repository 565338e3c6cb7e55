import { describe, expect, it } from 'vitest';
import {
  AnswerSize,
  DEFAULT_MAX_ANSWER_CHARS,
  ModelError,
  maxAnswerCharsOf,
} from '../../../../src/ai/model/core/index.ts';

describe('AnswerSize', () => {
  it('counts each piece with 32 more characters, and refuses the one past the limit', () => {
    const size = new AnswerSize('openai', 100);
    let grew = 0;
    size.onGrow = () => grew++;
    size.add('text', 10); // 42
    size.add('text', 26); // 100: at the limit, still held
    expect(grew).toBe(2);
    expect(() => size.add('text', 0)).toThrow(ModelError);
    expect(grew).toBe(2);
  });

  it('counts a value kept whole by its strings and keys, stopping at the limit', () => {
    const size = new AnswerSize('anthropic', 1_000);
    size.addValue('content block', { type: 'text', text: 'x'.repeat(100), n: 1 });
    // keys 4 + 4 + 1, strings 4 + 100, the number 32, the piece 32: 177; then 4 + 780 + 32: 993
    expect(() => size.addValue('output item', { data: 'y'.repeat(780) })).not.toThrow();
    const error = (() => {
      try {
        size.addValue('output item', { data: 'z'.repeat(10_000_000) });
      } catch (e) {
        return e as ModelError;
      }
    })();
    expect(error).toMatchObject({ provider: 'anthropic', code: 'answer_too_large' });
    expect(error?.message).toContain('a piece of output item passed it');
  });

  it('checks the option: a positive integer, the default when absent', () => {
    expect(maxAnswerCharsOf('openai', undefined)).toBe(DEFAULT_MAX_ANSWER_CHARS);
    expect(maxAnswerCharsOf('openai', 5)).toBe(5);
    for (const bad of [0, -1, 1.5, Number.POSITIVE_INFINITY, '5']) {
      expect(() => maxAnswerCharsOf('openai', bad)).toThrow(RangeError);
    }
  });
});
