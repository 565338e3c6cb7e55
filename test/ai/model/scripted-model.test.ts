import { describe, expect, it } from 'vitest';
import { type StreamEvent, scriptedModel } from '../../../src/ai/model/index.ts';

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('scriptedModel', () => {
  it('replays text and tool-call turns in order and records requests', async () => {
    const model = scriptedModel([
      { text: 'Let me look.', toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
      'Sunny.',
    ]);
    const first = await model.generate(ask);
    expect(first.text).toBe('Let me look.');
    expect(first.toolCalls).toEqual([{ id: 'call_0_0', name: 'weather', args: { city: 'Oslo' } }]);
    expect(first.stopReason).toBe('tool_calls');
    expect(first.message.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'call_0_0', name: 'weather', args: { city: 'Oslo' } },
    ]);
    const second = await model.generate({ messages: [] });
    expect(second).toMatchObject({ text: 'Sunny.', stopReason: 'end', toolCalls: [] });
    expect(model.requests).toEqual([ask, { messages: [] }]);
    expect(model.remaining).toBe(0);
  });

  it('fails clearly when it runs out of turns', async () => {
    const model = scriptedModel(['only']);
    await model.generate(ask);
    await expect(model.generate(ask)).rejects.toThrow(/no turn left for request 2 \(1 turn/);
  });

  it('calls function turns with the request and turn number, and throws Error turns', async () => {
    const model = scriptedModel([
      (request, turn) => `echo ${request.messages.length} at ${turn}`,
      new Error('rate limited'),
    ]);
    expect((await model.generate(ask)).text).toBe('echo 1 at 0');
    await expect(model.generate(ask)).rejects.toThrow('rate limited');
  });

  it('streams proper events ending in stop, with the same result as generate', async () => {
    const model = scriptedModel([
      {
        text: 'Two calls.',
        toolCalls: [
          { id: 'a', name: 'x', args: { n: 1 } },
          { id: 'b', name: 'y', args: {} },
        ],
        usage: { inputTokens: 3, outputTokens: 4 },
      },
    ]);
    const events = await collect(model.stream(ask));
    expect(events.map((e) => e.type)).toEqual([
      'text-delta',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'usage',
      'stop',
    ]);
    expect(events[2]).toEqual({ type: 'tool-call-delta', id: 'a', argsText: '{"n":1}', index: 0 });
    expect(events[4]).toEqual({ type: 'tool-call-start', id: 'b', name: 'y', index: 1 });
    const stop = events.at(-1);
    expect(stop?.type === 'stop' && stop.result.usage).toEqual({
      inputTokens: 3,
      outputTokens: 4,
      totalTokens: 7,
    });
  });

  it('ends a stream with an error event when the turn fails or the script is exhausted', async () => {
    const model = scriptedModel([new Error('boom')]);
    const events = await collect(model.stream(ask));
    expect(events).toHaveLength(1);
    expect(events[0].type === 'error' && events[0].error.message).toBe('boom');
    const after = await collect(model.stream(ask));
    expect(after[0].type === 'error' && after[0].error.message).toMatch(/no turn left/);
  });

  it('rejects with AbortError when the signal is already aborted', async () => {
    const model = scriptedModel(['never']);
    const controller = new AbortController();
    controller.abort();
    await expect(model.generate({ ...ask, signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('rejects a non-array script and malformed turns with clear errors', async () => {
    expect(() => scriptedModel('hello' as never)).toThrow(/expected an array of turns/);
    const model = scriptedModel([42 as never, { toolCalls: [{ args: {} }] } as never]);
    await expect(model.generate(ask)).rejects.toThrow(
      'scriptedModel: turn 0: expected a string, a reply object, an Error or a function, received number 42',
    );
    await expect(model.generate(ask)).rejects.toThrow(
      'scriptedModel: turn 1: toolCalls: expected an array of { name: string, args, id? }, received array',
    );
  });
});
