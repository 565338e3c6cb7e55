import { describe, expect, it } from 'vitest';
import { initialState, readState } from '../../../src/ai/agent/state.ts';

const valid = () => ({
  version: 1,
  runId: 'run-1',
  messages: [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'echo', args: {} }] },
  ],
  steps: [
    {
      step: 0,
      text: '',
      toolCalls: [{ id: 'c', name: 'echo', args: {} }],
      toolResults: [],
      stopReason: 'tool_calls',
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    },
  ],
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  turn: { step: 0, results: [], pending: [], cleared: [] },
});

describe('initialState', () => {
  it('starts a run from text with a generated run id, or the one given', () => {
    const state = initialState('hi', undefined);
    expect(state).toEqual({
      version: 1,
      runId: expect.stringMatching(/^run_[0-9a-f-]{36}$/),
      messages: [{ role: 'user', content: 'hi' }],
      steps: [],
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    });
    expect(initialState('hi', 'mine').runId).toBe('mine');
    expect(() => initialState('hi', '')).toThrow(
      'runId: expected a non-empty string, received string ""',
    );
  });

  it('refuses messages of the wrong shape, naming the index', () => {
    expect(() =>
      initialState([{ role: 'user', content: 'a' }, { role: 'bot' }] as never, undefined),
    ).toThrow(
      "input[1]: expected { role: 'user' | 'assistant' | 'system', content: string | ContentPart[] }",
    );
  });
});

describe('readState', () => {
  it('returns a private copy of a valid state', () => {
    const state = valid();
    const copy = readState(state);
    expect(copy).toEqual(state);
    copy.messages.push({ role: 'user', content: 'x' });
    expect(state.messages).toHaveLength(2);
  });

  it.each([
    ['no version', (s: any) => delete s.version, 'state: version undefined is not supported'],
    ['no run id', (s: any) => delete s.runId, 'state.runId: expected a non-empty string'],
    ['a bad message', (s: any) => (s.messages[0] = 1), 'state.messages[0]: expected { role'],
    [
      'a step without calls',
      (s: any) => delete s.steps[0].toolCalls,
      'state.steps[0]: expected a step',
    ],
    ['bad usage', (s: any) => (s.usage.totalTokens = '3'), 'state.usage: expected'],
    [
      'a turn pointing nowhere',
      (s: any) => (s.turn.step = 4),
      'state.turn.step: expected the index',
    ],
    ['a turn step "__proto__"', (s: any) => (s.turn.step = '__proto__'), 'state.turn.step'],
    ['a pending entry without id', (s: any) => s.turn.pending.push({}), 'state.turn.pending[0]'],
  ])('refuses a state with %s', (_label, spoil, message) => {
    const state = valid();
    spoil(state);
    expect(() => readState(state)).toThrow(message);
  });
});
