import { describe, expect, it } from 'vitest';
import { agent, type RunState } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { echoTool } from './helpers.ts';

/** An agent whose first turn calls `echo` (safe) and `remove` twice (needs approval), then answers. */
function setup() {
  const echo = echoTool();
  const remove = echoTool({ name: 'remove', requiresApproval: true });
  const model = scriptedModel([
    {
      toolCalls: [
        { id: 'r1', name: 'remove', args: { text: 'a.txt' } },
        { id: 'e1', name: 'echo', args: { text: 'hi' } },
        { id: 'r2', name: 'remove', args: { text: 'b.txt' } },
      ],
    },
    'Finished.',
  ]);
  const bot = agent({ model, tools: [echo, remove] });
  return { echo, remove, model, bot };
}

/** The suspended state, as another process would read it back. */
async function suspendedState(bot: ReturnType<typeof setup>['bot']): Promise<RunState> {
  const result = await bot.generate('clean up');
  if (result.status !== 'suspended') throw new Error('expected a suspended run');
  return JSON.parse(JSON.stringify(result.state));
}

describe('resume', () => {
  it('runs approved calls exactly once, answers rejected ones with the reason, and finishes', async () => {
    const { bot, remove, model } = setup();
    const state = await suspendedState(bot);
    const result = await bot.resume(state, {
      r1: { approve: true },
      r2: { reject: 'b.txt is still in use' },
    });
    expect(result.status).toBe('done');
    expect(remove.calls.map((c) => c.args.text)).toEqual(['a.txt']);
    const toolMessage = model.requests[1].messages.at(-1);
    expect(toolMessage).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', toolCallId: 'r1', content: 'echo: a.txt' },
        { type: 'tool_result', toolCallId: 'e1', content: 'echo: hi' },
        {
          type: 'tool_result',
          toolCallId: 'r2',
          content: 'Tool call "remove" was rejected: b.txt is still in use',
          isError: true,
        },
      ],
    });
    expect(result.status === 'done' && result.text).toBe('Finished.');
  });

  it('shows a rejection as the tool-result event of the call, before the next step', async () => {
    const { bot } = setup();
    const state = await suspendedState(bot);
    const events: string[] = [];
    await bot.resume(
      state,
      { r1: { approve: true }, r2: { reject: 'b.txt is still in use' } },
      {
        onEvent: (event) => {
          if (event.type === 'tool-result') {
            events.push(`${event.result.toolCallId}:${event.result.isError ? 'error' : 'ok'}`);
          } else events.push(event.type);
        },
      },
    );
    expect(events.slice(0, 3)).toEqual(['r2:error', 'r1:ok', 'step-finish']);
  });

  it('keeps calls without a decision pending, and resumes again later', async () => {
    const { bot, remove, echo } = setup();
    const state = await suspendedState(bot);
    const second = await bot.resume(state, { r2: { approve: true } });
    expect(second.status).toBe('suspended');
    expect(second.status === 'suspended' && second.pending.map((p) => p.toolCallId)).toEqual([
      'r1',
    ]);
    expect(remove.calls.map((c) => c.args.text)).toEqual(['b.txt']);
    const third = await bot.resume(JSON.parse(JSON.stringify(second.state)), {
      r1: { approve: true },
    });
    expect(third.status).toBe('done');
    expect(remove.calls.map((c) => c.args.text)).toEqual(['b.txt', 'a.txt']);
    expect(echo.calls).toHaveLength(1);
  });

  it('keeps the run id and derives idempotency keys from it', async () => {
    const { bot, remove } = setup();
    const state = await suspendedState(bot);
    await bot.resume(state, { r1: { approve: true }, r2: { approve: true } });
    expect(remove.calls.map((c) => c.ctx.idempotencyKey)).toEqual([
      `${state.runId}:r1`,
      `${state.runId}:r2`,
    ]);
    expect(remove.calls[0].ctx.step).toBe(0);
  });

  it('re-invokes a resumed suspension with the same arguments and ctx.resumeValue', async () => {
    const seen: unknown[] = [];
    const ask = tool({
      name: 'ask_human',
      description: 'Ask a human.',
      parameters: v.object({ question: v.string() }),
      execute: ({ question }: { question: string }, ctx) => {
        seen.push({ question, resumeValue: ctx.resumeValue });
        if (ctx.resumeValue === undefined) ctx.suspend('needs an answer', { question });
        return `human said ${String(ctx.resumeValue)}`;
      },
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'h', name: 'ask_human', args: { question: 'Ship?' } }] },
      'Shipping.',
    ]);
    const bot = agent({ model, tools: [ask] });
    const first = await bot.generate('go');
    const state = JSON.parse(JSON.stringify(first.state));
    const result = await bot.resume(state, { h: { resume: 'yes' } });
    expect(seen).toEqual([
      { question: 'Ship?', resumeValue: undefined },
      { question: 'Ship?', resumeValue: 'yes' },
    ]);
    expect(result.status === 'done' && result.steps[0].toolResults[0].content).toBe(
      'human said yes',
    );
  });

  it('accepts a decision carrying the pending call argsHash', async () => {
    const { bot } = setup();
    const state = await suspendedState(bot);
    const hash = state.turn!.pending.find((p) => p.toolCallId === 'r1')!.argsHash;
    const result = await bot.resume(state, { r1: { approve: true, argsHash: hash } });
    expect(result.status).toBe('suspended');
  });

  it('returns a finished run as it is', async () => {
    const model = scriptedModel(['Hi.']);
    const bot = agent({ model });
    const done = await bot.generate('hello');
    const again = await bot.resume(JSON.parse(JSON.stringify(done.state)));
    expect(again.status === 'done' && again.text).toBe('Hi.');
    expect(model.requests).toHaveLength(1);
  });
});

describe('resume refuses, changing nothing', () => {
  type Case = [string, (state: RunState) => [unknown, unknown], string];
  const cases: Case[] = [
    [
      'an unknown call',
      (s) => [s, { nope: { approve: true } }],
      'decision for "nope": no tool call has this id in this run (pending calls: r1, r2)',
    ],
    [
      'an already-settled call',
      (s) => [s, { e1: { approve: true } }],
      'decision for "e1": the call is already settled (pending calls: r1, r2)',
    ],
    [
      'arguments changed since the call was suspended',
      (s) => {
        s.steps[0].toolCalls[0].args = { text: '/' };
        return [s, { r1: { approve: true } }];
      },
      `decision for "r1": the call's arguments no longer match`,
    ],
    [
      'a decision made for other arguments',
      (s) => [s, { r1: { approve: true, argsHash: 'f00' } }],
      'decision for "r1": it was made for other arguments',
    ],
    [
      'a state of another version',
      (s) => [{ ...s, version: 2 }, { r1: { approve: true } }],
      'state: version number 2 is not supported; this agent reads version 1',
    ],
    [
      'a decision of the wrong shape',
      (s) => [s, { r1: { approve: 'yes' } }],
      'decision for "r1": expected { approve: true }, { reject: reason } or { resume: value }',
    ],
    [
      'a resume value for an approval',
      (s) => [s, { r1: { resume: 1 } }],
      'decision for "r1": the call waits for an approval',
    ],
    [
      'decisions that are not an object',
      (s) => [s, ['r1']],
      'resume(state, decisions): expected an object mapping toolCallId to a decision',
    ],
    ['a state that is not one', () => ['{}', {}], 'state: expected a run state object'],
  ];

  it.each(cases)('%s', async (_label, make, message) => {
    const { bot, remove, echo, model } = setup();
    const state = await suspendedState(bot);
    const before = JSON.stringify(state);
    const [badState, decisions] = make(structuredClone(state));
    const frozen = JSON.stringify(badState);
    await expect(bot.resume(badState as RunState, decisions as never)).rejects.toThrow(message);
    expect(JSON.stringify(badState)).toBe(frozen);
    expect(remove.calls).toHaveLength(0);
    expect(echo.calls).toHaveLength(1);
    expect(model.requests).toHaveLength(1);
    // The valid state still resumes normally afterwards.
    const ok = await bot.resume(JSON.parse(before), {
      r1: { approve: true },
      r2: { approve: true },
    });
    expect(ok.status).toBe('done');
  });

  it('refuses a second decision for a call the first resume settled', async () => {
    const { bot } = setup();
    const state = await suspendedState(bot);
    const second = await bot.resume(state, { r1: { reject: 'no' } });
    await expect(bot.resume(second.state, { r1: { approve: true } })).rejects.toThrow(
      'decision for "r1": the call is already settled (pending calls: r2)',
    );
  });
});
