import { describe, expect, it } from 'vitest';
import { closestName, nearestFlag, unknownKeyMessage } from '../../src/internal/known-keys.ts';

describe('unknownKeyMessage', () => {
  const known = ['signal', 'onStepStart', 'onStepFinish', 'checkpointCopy'];

  it('is undefined when every key is known', () => {
    expect(unknownKeyMessage('run options', { signal: undefined, onStepStart() {} }, known)).toBe(
      undefined,
    );
  });

  it('names the first unknown key, the closest known name and the whole list', () => {
    expect(unknownKeyMessage('run options', { onStepStrat() {} }, known)).toBe(
      'run options: unknown option "onStepStrat"; did you mean "onStepStart"? expected one of signal, onStepStart, onStepFinish, checkpointCopy',
    );
  });

  it('leaves the suggestion out when nothing is near', () => {
    expect(unknownKeyMessage('f(options)', { zzz: 1 }, ['model', 'apiKey'])).toBe(
      'f(options): unknown option "zzz"; expected one of model, apiKey',
    );
    expect(unknownKeyMessage('f()', { a: 1 }, [])).toBe(
      'f(): unknown option "a"; expected no options',
    );
  });

  it('prefers a hint, for names another library spells differently', () => {
    expect(
      unknownKeyMessage('anthropic(options)', { thinking: {} }, ['model'], {
        thinking: '"reasoning"',
      }),
    ).toBe(
      'anthropic(options): unknown option "thinking"; did you mean "reasoning"? expected one of model',
    );
  });

  it('is safe on hostile keys: prototype names, inherited hints, huge keys', () => {
    const parsed = JSON.parse('{"__proto__": 1}');
    expect(unknownKeyMessage('f(options)', parsed, ['model'])).toBe(
      'f(options): unknown option "__proto__"; expected one of model',
    );
    // `constructor` is on every object's prototype: it is not a hint.
    expect(unknownKeyMessage('f(options)', { constructor: 1 }, ['model'], {})).toBe(
      'f(options): unknown option "constructor"; expected one of model',
    );
    const huge = 'm'.repeat(1_000_000);
    const message = unknownKeyMessage('f(options)', { [huge]: 1 }, ['model'])!;
    expect(message.length).toBeLessThan(200);
  });
});

describe('closestName', () => {
  it.each([
    ['baseUrl', ['baseURL', 'apiKey'], '"baseURL"'],
    ['idle', ['firstByteMs', 'idleMs'], '"idleMs"'],
    ['timeout', ['timeouts'], '"timeouts"'],
    ['max_tokens', ['maxTokens', 'temperature'], '"maxTokens"'],
    ['reasoning_effort', ['reasoningEffort'], '"reasoningEffort"'],
    ['modle', ['model'], '"model"'],
    ['tols', ['tools'], '"tools"'],
  ])('%s → %s', (name, known, expected) => {
    expect(closestName(name, known)).toBe(expected);
  });

  it('suggests nothing for a name too far from every known one', () => {
    expect(closestName('api', ['apiKey', 'baseURL'])).toBe(undefined);
    expect(closestName('thinking', ['reasoning'])).toBe(undefined);
    expect(closestName('ab', ['xy'])).toBe(undefined);
  });
});

describe('nearestFlag', () => {
  it('names the known flag a misspelt one slips from, judged without the dashes', () => {
    const known = ['--format', '--db', '--help'];
    expect(nearestFlag('--fromat', known)).toBe('--format');
    expect(nearestFlag('--FORMAT', known)).toBe('--format');
    expect(nearestFlag('--dbb', known)).toBe('--db');
  });

  it('names none for a flag far from all, however many dashes', () => {
    expect(nearestFlag('--bogus', ['--format', '--help'])).toBe(undefined);
    expect(nearestFlag('--x', ['--db'])).toBe(undefined);
    expect(nearestFlag(`--${'a'.repeat(100)}`, ['--a'])).toBe(undefined);
  });
});
