/**
 * fino's UI message streams read by `ai`'s own `readUIMessageStream`, and side by side with
 * the AI SDK's own backend (`streamText(...).toUIMessageStream()`) for the same turns: the
 * messages both build are equal (the issue's "Done when").
 */
import { describe, expect, it } from 'vitest';
import { uiMessageChunks } from '../../../src/ai/ui/index.ts';
import {
  chunkStream,
  chunkTypes,
  comparable,
  finoAgent,
  IMAGE,
  nativeStream,
  readMessage,
  type Turn,
} from '../../helpers/ui-turns.ts';

const SCENARIOS: Record<string, Turn[]> = {
  text: [{ text: 'Hello there!' }],
  reasoning: [{ reasoning: 'They greet me.', text: 'Hello!' }],
  tool: [
    { text: 'Looking.', calls: [{ id: 'c1', name: 'weather', input: { city: 'Oslo' } }] },
    { text: 'It is 4 °C.' },
  ],
  'tool error': [
    { calls: [{ id: 'c1', name: 'broken', input: { city: 'Oslo' } }] },
    { text: 'It broke.' },
  ],
  'tool image': [
    { calls: [{ id: 'c1', name: 'photo', input: { city: 'Oslo' } }] },
    { text: 'Here it is.' },
  ],
  approval: [{ text: 'Paying.', calls: [{ id: 'c1', name: 'pay', input: { city: 'Oslo' } }] }],
};

async function finoMessage(turns: Turn[]) {
  const run = finoAgent(turns).stream('hi', { runId: 'run_1' });
  return readMessage(chunkStream(uiMessageChunks(run, { runId: 'run_1' })));
}

describe('uiMessageChunks read by ai’s readUIMessageStream', () => {
  for (const [name, turns] of Object.entries(SCENARIOS)) {
    it(`a ${name} turn: the same message parts as streamText's own UI message stream`, async () => {
      const fino = await finoMessage(turns);
      const native = await readMessage(nativeStream(turns));
      expect(fino.message.id).toBe('run_1');
      expect(comparable(fino.message).parts).toEqual(comparable(native.message).parts);
      expect(fino.errors).toEqual(native.errors);
    });
  }

  it('a tool turn carries input, output and the image as the protocol does', async () => {
    const { message } = await finoMessage(SCENARIOS['tool image']);
    expect(message.parts[1]).toMatchObject({
      type: 'tool-photo',
      toolCallId: 'c1',
      state: 'output-available',
      input: { city: 'Oslo' },
      output: IMAGE,
    });
  });

  it('an approval: the tool part waits with the approval id of the run and the call', async () => {
    const { message, errors } = await finoMessage(SCENARIOS.approval);
    expect(errors).toEqual([]);
    expect(message.parts.at(-1)).toMatchObject({
      type: 'tool-pay',
      state: 'approval-requested',
      approval: { id: 'run_1/c1' },
    });
    expect(message.metadata).toMatchObject({ fino: { runId: 'run_1', status: 'suspended' } });
  });

  it('an error: the same chunks as streamText sends for a failed model call, plus fino’s code', async () => {
    const turns = [{ error: 'the model is down' }];
    const fino = chunkTypes(chunkStream(uiMessageChunks(finoAgent(turns).stream('hi'))));
    expect(await fino).toEqual(await chunkTypes(nativeStream(turns)));
    const read = await finoMessage(turns);
    expect(read.errors.map(String)).toEqual(['Error: INTERNAL: the model is down']);
    expect(read.message.metadata).toMatchObject({ fino: { status: 'error' } });
  });

  it('an error: a data-fino-error part with the code before the protocol error', async () => {
    const { message } = await finoMessage([{ error: 'the model is down' }]);
    expect(message.parts.filter((p) => p.type === 'data-fino-error')).toEqual([
      { type: 'data-fino-error', data: { code: 'INTERNAL', message: 'the model is down' } },
    ]);
  });

  it('usage and cost reach the message metadata at the finish', async () => {
    const { message } = await finoMessage(SCENARIOS.tool);
    expect(message.metadata).toMatchObject({
      fino: {
        runId: 'run_1',
        agent: 'assistant',
        status: 'done',
        usage: { inputTokens: 6, outputTokens: 4, totalTokens: 10 },
      },
    });
  });
});
