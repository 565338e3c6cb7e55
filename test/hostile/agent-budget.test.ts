/**
 * Attack corpus for result budgets: a huge tool result must not reach the model whole,
 * and whatever a model sends to `read_result` (or a tampered state holds) ends in a
 * clear `isError` result or an `AgentError` (`INVALID_STATE`), never a crash or a polluted prototype.
 */
import { describe, expect, it } from 'vitest';
import { agent, type RunState } from '../../src/ai/agent/index.ts';
import type { ContentPart } from '../../src/ai/model/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';

const flood = tool({
  name: 'flood',
  parameters: v.object({}),
  execute: () => 'z'.repeat(5_000_000),
});

const readCalls = (args: unknown[]) =>
  scriptedModel([
    { toolCalls: [{ id: '__proto__', name: 'flood', args: {} }] },
    { toolCalls: args.map((a, i) => ({ id: `r${i}`, name: 'read_result', args: a })) },
    'ok',
  ]);

describe('read_result under hostile input', () => {
  it('cuts a 5 MB result to the default budget and keeps an id like __proto__ as plain data', async () => {
    const model = readCalls([{ id: '__proto__', offset: 4_999_990 }]);
    const result = await agent({ model, tools: [flood] }).generate('go');
    const sent = (model.requests[1].messages.at(-1)!.content as ContentPart[])[0];
    expect(sent.type === 'tool_result' && (sent.content as string).length).toBeLessThan(20_300);
    expect(result.state.results?.[0].id).toBe('__proto__');
    expect(({} as Record<string, unknown>).content).toBeUndefined();
    const [last] = result.state.steps[1].toolResults;
    expect(last).toEqual({
      type: 'tool_result',
      toolCallId: 'r0',
      content: `${'z'.repeat(10)}\n\n[End of result "__proto__": showing 4999990–5000000 of 5000000.]`,
    });
  });

  it('answers malformed arguments, unknown ids and offsets past the end with isError results', async () => {
    const model = readCalls([
      null,
      'text',
      [],
      { id: 5, offset: 0 },
      { id: '__proto__', offset: -1 },
      { id: '__proto__', offset: 1.5 },
      { id: '__proto__', offset: 1e308 },
      { id: '__proto__', offset: '0' },
      { id: 'constructor', offset: 0 },
      { id: '__proto__', offset: 5_000_000 },
    ]);
    const result = await agent({ model, tools: [flood] }).generate('go');
    const answers = result.state.steps[1].toolResults.map((r) => [r.isError, r.content]);
    expect(answers).toEqual([
      [
        true,
        'Invalid arguments for tool "read_result": expected an object { "id": string, "offset": integer }, received null.',
      ],
      [
        true,
        'Invalid arguments for tool "read_result": expected an object { "id": string, "offset": integer }, received string "text".',
      ],
      [
        true,
        'Invalid arguments for tool "read_result": expected an object { "id": string, "offset": integer }, received array.',
      ],
      [
        true,
        'Invalid arguments for tool "read_result": expected "id" to be a string, received number 5.',
      ],
      [
        true,
        'Invalid arguments for tool "read_result": expected "offset" to be a non-negative integer, received number -1.',
      ],
      [
        true,
        'Invalid arguments for tool "read_result": expected "offset" to be a non-negative integer, received number 1.5.',
      ],
      [true, 'Offset 1e+308 is past the end of result "__proto__", which has 5000000 characters.'],
      [
        true,
        'Invalid arguments for tool "read_result": expected "offset" to be a non-negative integer, received string "0".',
      ],
      [true, 'Unknown result id "constructor". Cut results: "__proto__".'],
      [true, 'Offset 5000000 is past the end of result "__proto__", which has 5000000 characters.'],
    ]);
  });

  it('refuses a state whose stored results were tampered with', async () => {
    const model = readCalls([]);
    const { state } = await agent({ model: scriptedModel(['hi']) }).generate('go');
    const bot = agent({ model, tools: [flood] });
    const tampered = (results: unknown) => ({ ...state, results }) as unknown as RunState;
    await expect(bot.resume(tampered('x'))).rejects.toThrow(
      'state.results: expected an array or absent, received string "x"',
    );
    await expect(
      bot.resume(tampered([{ id: 'a', toolName: 't', content: 'abc', maxChars: 1, size: 999 }])),
    ).rejects.toThrow(
      "state.results[0].size: expected 3 (the content's size), received number 999",
    );
    await expect(bot.resume(tampered([{ id: 'a' }]))).rejects.toThrow(
      'state.results[0]: expected { id, toolName, content, maxChars, size }, received object',
    );
    await expect(bot.resume(tampered({ __proto__: [] }))).rejects.toMatchObject({
      name: 'AgentError',
      code: 'INVALID_STATE',
    });
  });
});
