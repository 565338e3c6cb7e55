import { describe, expect, it } from 'vitest';
import { AgentError, agent } from '../../../src/ai/agent/index.ts';
import { type ModelMessage, scriptedModel } from '../../../src/ai/model/index.ts';

const earlier: ModelMessage[] = [
  { role: 'user', content: 'My order is o-17.' },
  { role: 'assistant', content: 'Noted: o-17.' },
];

describe('run option history', () => {
  it('puts the earlier messages before the input, sends them, and returns them in result.messages', async () => {
    const model = scriptedModel(['It is on its way.']);
    const result = await agent({ model }).generate('Where is it?', { history: earlier });
    expect(model.requests[0].messages).toEqual([
      ...earlier,
      { role: 'user', content: 'Where is it?' },
    ]);
    expect(result.status === 'done' && result.messages).toEqual([
      ...earlier,
      { role: 'user', content: 'Where is it?' },
      expect.objectContaining({ role: 'assistant' }),
    ]);
  });

  it('copies the history: the caller array and its messages are not changed by the run', async () => {
    const history = structuredClone(earlier);
    const result = await agent({ model: scriptedModel(['ok']) }).generate('next', { history });
    expect(history).toEqual(earlier);
    if (result.status !== 'done') throw new Error('expected done');
    result.messages[0].content = 'changed';
    expect(history[0].content).toBe('My order is o-17.');
  });

  it('streams and steps with the history too', async () => {
    const streamed = agent({ model: scriptedModel(['a']) }).stream('q', { history: earlier });
    const result = await streamed.result;
    expect(result.status === 'done' && result.messages.slice(0, 2)).toEqual(earlier);
    const stepped = await agent({ model: scriptedModel(['b']) }).step('q', { history: earlier });
    expect(stepped.state.messages.slice(0, 2)).toEqual(earlier);
  });

  it.each([
    [
      'not an array',
      { role: 'user', content: 'x' },
      'run options.history: expected an array of messages, received object',
    ],
    [
      'a message with a bad role',
      [earlier[0], { role: 'tool', content: 'x' }],
      "run options.history[1]: expected { role: 'user' | 'assistant' | 'system', content: string | ContentPart[] }",
    ],
    ['a null message', [null], 'run options.history[0]: expected'],
  ])(
    'refuses a history that is %s, naming where, before the model is asked',
    async (_, history, message) => {
      const model = scriptedModel(['never']);
      const run = agent({ model }).generate('q', { history: history as ModelMessage[] });
      await expect(run).rejects.toThrow(AgentError);
      await expect(run).rejects.toThrow(message);
      expect(model.requests).toHaveLength(0);
    },
  );
});
