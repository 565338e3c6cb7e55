import { describe, expect, it } from 'vitest';
import {
  AgentError,
  type AgentErrorCode,
  AgentOutputError,
  agent,
  maxSteps,
  type RunState,
} from '../../../src/ai/agent/index.ts';
import { type GenerateResult, type Model, scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { echoTool } from './helpers.ts';

/** What `work` threw or rejected with. */
async function caught(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal, received none');
}

/** Asserts that `work` refuses with an `AgentError` of `code` whose message contains `message`. */
async function expectRefusal(work: () => unknown, code: AgentErrorCode, message: string) {
  const error = await caught(work);
  expect(error).toBeInstanceOf(AgentError);
  expect(error).toMatchObject({ name: 'AgentError', code });
  expect((error as Error).message).toContain(message);
}

/** An agent whose first turn calls `remove` (needs approval) and `echo`, as a suspended state. */
async function suspended() {
  const model = scriptedModel([
    {
      toolCalls: [
        { id: 'r1', name: 'remove', args: { text: 'a.txt' } },
        { id: 'e1', name: 'echo', args: { text: 'hi' } },
      ],
    },
    'Finished.',
  ]);
  const bot = agent({
    model,
    tools: [echoTool(), echoTool({ name: 'remove', requiresApproval: true })],
  });
  const first = await bot.generate('clean up');
  const state: RunState = JSON.parse(JSON.stringify(first.state));
  return { bot, state };
}

/** A model whose every turn is `result`, as it is: no checks, no defaults. */
function modelAnswering(result: unknown): Model {
  return {
    id: 'raw',
    generate: async () => result as GenerateResult,
    stream: async function* () {
      yield { type: 'stop' as const, result: result as GenerateResult };
    },
  } as unknown as Model;
}

describe('AgentError codes', () => {
  const model = scriptedModel([]);

  it.each([
    ['an unknown agent() option', () => agent({ model, colour: 'red' } as never), 'colour'],
    ['a bad model', () => agent({ model: {} as never }), 'agent(options).model'],
    ['a bad toolConcurrency', () => agent({ model, toolConcurrency: 0 }), 'toolConcurrency'],
    ['a bad maxResultChars', () => agent({ model, maxResultChars: 0 }), 'maxResultChars'],
    ['a bad telemetry option', () => agent({ model, telemetry: 'on' as never }), 'telemetry'],
    ['a bad output schema', () => agent({ model, output: 42 as never }), 'agent(options).output'],
    ['maxSteps(0)', () => maxSteps(0), 'maxSteps(n)'],
    ['asTool() without a description', () => agent({ model }).asTool({} as never), 'asTool'],
    ['bad run input', () => agent({ model }).generate(42 as never), 'agent input'],
    ['a bad runId', () => agent({ model }).generate('hi', { runId: '' }), 'runId'],
    [
      'a bad run option',
      () => agent({ model }).generate('hi', { onCheckpoint: 1 as never }),
      'run options.onCheckpoint',
    ],
    [
      'a bad hook',
      () => agent({ model }).generate('hi', { onStepFinish: 'log' as never }),
      'run options.onStepFinish',
    ],
  ])('INVALID_ARGUMENT for %s', async (_label, work, message) => {
    await expectRefusal(work, 'INVALID_ARGUMENT', message);
  });

  it('keeps what the schema reader threw as the cause of a bad output schema', async () => {
    const error = await caught(() => agent({ model, output: 42 as never }));
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('INVALID_ARGUMENT when the approval policy answers something else', async () => {
    const bot = agent({
      model: scriptedModel([{ toolCalls: [{ id: 'c', name: 'echo', args: { text: 'x' } }] }]),
      tools: [echoTool()],
      approval: () => 'yes' as never,
    });
    await expectRefusal(() => bot.generate('go'), 'INVALID_ARGUMENT', 'approval policy');
  });

  it.each([
    ['a duplicate name', [echoTool(), echoTool()], 'two tools are named "echo"'],
    ['the reserved name', [echoTool({ name: 'read_result' })], 'is reserved'],
    ['a name providers refuse', [echoTool({ name: 'a b' })], 'rename the tool'],
  ])('INVALID_TOOL for %s', async (_label, tools, message) => {
    await expectRefusal(() => agent({ model, tools }), 'INVALID_TOOL', message);
  });

  it.each([
    ['a state that is not an object', () => '{}', 'state: expected a run state object'],
    ['another version', (s: RunState) => ({ ...s, version: 2 }), 'is not supported'],
    [
      'a bad message',
      (s: RunState) => ({ ...s, messages: [{ role: 'robot' }] }),
      'state.messages[0]',
    ],
    ['bad stored results', (s: RunState) => ({ ...s, results: {} }), 'state.results'],
    ['a bad trace context', (s: RunState) => ({ ...s, trace: { traceId: 'x' } }), 'state.trace'],
  ])('INVALID_STATE for %s', async (_label, change, message) => {
    const { bot, state } = await suspended();
    const bad = change(state) as RunState;
    await expectRefusal(() => bot.resume(bad, {}), 'INVALID_STATE', message);
  });

  it('INVALID_ARGUMENT, not INVALID_STATE, for a bad message in the run input', async () => {
    await expectRefusal(
      () => agent({ model }).generate([{ role: 'robot' }] as never),
      'INVALID_ARGUMENT',
      'input[0]',
    );
  });

  it.each([
    ['decisions of the wrong shape', ['r1'], 'INVALID_ARGUMENT', 'expected an object mapping'],
    ['a malformed decision', { r1: { approve: 'yes' } }, 'INVALID_ARGUMENT', 'expected { approve'],
    ['an unknown call', { nope: { approve: true } }, 'NOT_PENDING', 'no tool call has this id'],
    ['a settled call', { e1: { approve: true } }, 'NOT_PENDING', 'already settled'],
    ['a resume for an approval', { r1: { resume: 1 } }, 'DECISION_MISMATCH', 'waits for an'],
    [
      'a decision for other arguments',
      { r1: { approve: true, argsHash: 'f00' } },
      'ARGS_MISMATCH',
      'made for other arguments',
    ],
  ] as const)('a decision: %s', async (_label, decisions, code, message) => {
    const { bot, state } = await suspended();
    await expectRefusal(() => bot.resume(state, decisions as never), code, message);
  });

  it('ARGS_MISMATCH when the state was changed since the call was suspended', async () => {
    const { bot, state } = await suspended();
    state.steps[0].toolCalls[0].args = { text: '/' };
    await expectRefusal(
      () => bot.resume(state, { r1: { approve: true } }),
      'ARGS_MISMATCH',
      'no longer match',
    );
  });

  it('DECISION_MISMATCH for an approval of a suspended call', async () => {
    const ask = tool({
      name: 'ask_human',
      description: 'Ask a human.',
      parameters: v.object({}),
      execute: (_args: unknown, ctx) => ctx.suspend('needs an answer'),
    });
    const bot = agent({
      model: scriptedModel([{ toolCalls: [{ id: 'h', name: 'ask_human', args: {} }] }]),
      tools: [ask],
    });
    const first = await bot.generate('go');
    await expectRefusal(
      () => bot.resume(first.state, { h: { approve: true } }),
      'DECISION_MISMATCH',
      'is suspended ("needs an answer")',
    );
  });

  it.each([
    ['no assistant message', { toolCalls: [] }, 'expected a GenerateResult'],
    [
      'two calls with one id',
      {
        message: { role: 'assistant', content: [] },
        text: '',
        toolCalls: [
          { id: 'same', name: 'echo', args: { text: 'a' } },
          { id: 'same', name: 'echo', args: { text: 'b' } },
        ],
        stopReason: 'tool-calls',
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      },
      'two tool calls with the id "same"',
    ],
  ])('INVALID_MODEL_TURN for %s', async (_label, result, message) => {
    const bot = agent({ model: modelAnswering(result), tools: [echoTool()] });
    await expectRefusal(() => bot.generate('go'), 'INVALID_MODEL_TURN', message);
  });

  it('INVALID_MODEL_TURN for a stream that ends without a stop event', async () => {
    const model = {
      ...scriptedModel([]),
      id: 'cut',
      stream: async function* () {},
    } as unknown as Model;
    const run = agent({ model }).stream('go');
    await expectRefusal(() => run.result, 'INVALID_MODEL_TURN', 'without a stop event');
  });

  it('INVALID_OUTPUT for an answer that fails the output schema twice: an AgentOutputError', async () => {
    const bot = agent({
      model: scriptedModel(['not json', 'still not json']),
      output: v.object({ city: v.string() }),
    });
    const error = await caught(() => bot.generate('Where?'));
    expect(error).toBeInstanceOf(AgentOutputError);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ name: 'AgentOutputError', code: 'INVALID_OUTPUT' });
  });
});
