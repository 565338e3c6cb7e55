import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { SuspendSignal, tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { echoTool } from './helpers.ts';

const twoCalls = () =>
  scriptedModel([
    {
      toolCalls: [
        { id: 'safe', name: 'echo', args: { text: 'read' } },
        { id: 'risky', name: 'remove', args: { text: 'prod-db' } },
      ],
    },
    'Finished.',
  ]);

describe('approval', () => {
  it('makes a requiresApproval call pending without running it; the other calls still run', async () => {
    const echo = echoTool();
    const remove = echoTool({ name: 'remove', requiresApproval: true });
    const result = await agent({ model: twoCalls(), tools: [echo, remove] }).generate('go');
    expect(result.status).toBe('suspended');
    if (result.status !== 'suspended') return;
    expect(result.pending).toEqual([
      {
        kind: 'approval',
        toolCallId: 'risky',
        toolName: 'remove',
        args: { text: 'prod-db' },
        argsHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        risk: 'destructive',
        sideEffects: true,
      },
    ]);
    expect(remove.calls).toHaveLength(0);
    expect(echo.calls).toHaveLength(1);
    expect(result.state.turn?.results).toEqual([
      { type: 'tool_result', toolCallId: 'safe', content: 'echo: read' },
    ]);
    expect(JSON.parse(JSON.stringify(result.state))).toEqual(result.state);
  });

  it('asks the policy with the call and the tool: allow runs, deny answers isError, ask suspends', async () => {
    const seen: string[] = [];
    const answers: Record<string, 'allow' | 'deny' | 'ask'> = { a: 'allow', d: 'deny', q: 'ask' };
    const echo = echoTool();
    const model = scriptedModel([
      {
        toolCalls: ['a', 'd', 'q'].map((id) => ({ id, name: 'echo', args: { text: id } })),
      },
    ]);
    const result = await agent({
      model,
      tools: [echo],
      approval: async (call, t) => {
        seen.push(`${call.id}:${t.name}`);
        return answers[call.id];
      },
    }).generate('go');
    expect(seen).toEqual(['a:echo', 'd:echo', 'q:echo']);
    expect(echo.calls.map((c) => c.args.text)).toEqual(['a']);
    expect(result.status === 'suspended' && result.pending.map((p) => p.toolCallId)).toEqual(['q']);
    expect(result.state.turn?.results.find((r) => r.toolCallId === 'd')).toEqual({
      type: 'tool_result',
      toolCallId: 'd',
      content: 'Tool call "echo" was denied by the approval policy.',
      isError: true,
    });
  });

  it('still asks for a requiresApproval tool when the policy allows it', async () => {
    const remove = echoTool({ name: 'remove', requiresApproval: true });
    const result = await agent({
      model: twoCalls(),
      tools: [echoTool(), remove],
      approval: () => 'allow',
    }).generate('go');
    expect(result.status).toBe('suspended');
    expect(remove.calls).toHaveLength(0);
  });

  it('fails the run with a clear error when the policy answers something else', async () => {
    const run = agent({
      model: twoCalls(),
      tools: [echoTool(), echoTool({ name: 'remove' })],
      approval: () => 'yes' as never,
    }).generate('go');
    await expect(run).rejects.toThrow(
      `agent approval policy: expected 'allow', 'deny' or 'ask' for tool call "echo", received string "yes"`,
    );
  });
});

describe('suspension', () => {
  it('turns ctx.suspend() into a pending call with its reason and payload', async () => {
    const ask = tool({
      name: 'ask_human',
      description: 'Ask a human.',
      parameters: v.object({ question: v.string() }),
      execute: ({ question }: { question: string }, ctx) =>
        ctx.suspend('needs a human answer', { question }),
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'h', name: 'ask_human', args: { question: 'Ship it?' } }] },
    ]);
    const result = await agent({ model, tools: [ask] }).generate('go');
    expect(result.status === 'suspended' && result.pending).toEqual([
      {
        kind: 'suspend',
        toolCallId: 'h',
        toolName: 'ask_human',
        args: { question: 'Ship it?' },
        argsHash: expect.any(String),
        reason: 'needs a human answer',
        payload: { question: 'Ship it?' },
      },
    ]);
  });

  it('treats a thrown SuspendSignal the same way', async () => {
    const wait = tool({
      name: 'wait_for_webhook',
      description: 'Wait for a webhook.',
      execute: () => {
        throw new SuspendSignal('waiting for payment', { invoice: 7 });
      },
    });
    const model = scriptedModel([{ toolCalls: [{ id: 'w', name: 'wait_for_webhook', args: {} }] }]);
    const result = await agent({ model, tools: [wait] }).generate('go');
    expect(result.status === 'suspended' && result.pending[0]).toMatchObject({
      kind: 'suspend',
      reason: 'waiting for payment',
      payload: { invoice: 7 },
    });
  });
});

describe('decided calls', () => {
  it('are not put to the policy again once approved', async () => {
    const echo = echoTool();
    let asked = 0;
    const model = scriptedModel([
      { toolCalls: [{ id: 'q', name: 'echo', args: { text: 'x' } }] },
      'Done.',
    ]);
    const bot = agent({
      model,
      tools: [echo],
      approval: () => {
        asked += 1;
        return 'ask';
      },
    });
    const first = await bot.generate('go');
    const result = await bot.resume(first.state, { q: { approve: true } });
    expect(result.status).toBe('done');
    expect(asked).toBe(1);
    expect(echo.calls).toHaveLength(1);
  });

  it('suspend again when the resumed tool suspends again', async () => {
    const ask = tool({
      name: 'ask_twice',
      description: 'Needs two answers.',
      execute: (_args: unknown, ctx) => {
        if (ctx.resumeValue === undefined) ctx.suspend('first question');
        if (ctx.resumeValue === 'one') ctx.suspend('second question', { after: 'one' });
        return `got ${String(ctx.resumeValue)}`;
      },
    });
    const model = scriptedModel([{ toolCalls: [{ id: 't', name: 'ask_twice', args: {} }] }, 'Ok.']);
    const bot = agent({ model, tools: [ask] });
    const first = await bot.generate('go');
    const second = await bot.resume(first.state, { t: { resume: 'one' } });
    expect(second.status === 'suspended' && second.pending[0]).toMatchObject({
      kind: 'suspend',
      reason: 'second question',
      payload: { after: 'one' },
    });
    const third = await bot.resume(second.state, { t: { resume: 'two' } });
    expect(third.status === 'done' && third.steps[0].toolResults[0].content).toBe('got two');
  });
});
