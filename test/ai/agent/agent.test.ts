import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/ai/agent/index.ts';
import { agent, maxSteps, streamText } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { collect, deferred, echoTool, noUsage, replayModel, textResult } from './helpers.ts';

describe('agent().generate', () => {
  it('returns the model answer when it calls no tools', async () => {
    const model = scriptedModel([{ text: 'Hello!', usage: { inputTokens: 3, outputTokens: 2 } }]);
    const result = await agent({ model, instructions: 'Be brief.' }).generate('Hi');
    expect(result.status).toBe('done');
    if (result.status !== 'done') return;
    expect(result.text).toBe('Hello!');
    expect(result.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
    ]);
    expect(result.steps).toHaveLength(1);
    expect(result.usage).toEqual({
      inputTokens: 3,
      outputTokens: 2,
      totalTokens: 5,
      cost: 'unknown',
    });
    expect(model.requests[0].system).toBe('Be brief.');
    expect(model.requests[0].tools).toBeUndefined();
  });

  it('runs tool calls, feeds their results back, and sums usage over steps', async () => {
    const echo = echoTool();
    const model = scriptedModel([
      { toolCalls: [{ id: 'a', name: 'echo', args: { text: 'one' } }], usage: { inputTokens: 1 } },
      { toolCalls: [{ id: 'b', name: 'echo', args: { text: 'two' } }], usage: { inputTokens: 2 } },
      { text: 'Done.', usage: { outputTokens: 4 } },
    ]);
    const result = await agent({ model, tools: [echo] }).generate('go', { runId: 'run-1' });
    expect(result.status).toBe('done');
    if (result.status !== 'done') return;
    expect(result.text).toBe('Done.');
    expect(result.usage).toEqual({
      inputTokens: 3,
      outputTokens: 4,
      totalTokens: 7,
      cost: 'unknown',
    });
    expect(result.steps.map((s) => s.toolResults)).toEqual([
      [{ type: 'tool_result', toolCallId: 'a', content: 'echo: one' }],
      [{ type: 'tool_result', toolCallId: 'b', content: 'echo: two' }],
      [],
    ]);
    expect(model.requests[0].tools).toEqual([echo.toToolDefinition()]);
    expect(model.requests[1].messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', toolCallId: 'a', content: 'echo: one' }],
    });
    expect(result.state.runId).toBe('run-1');
  });

  it('gives every tool call a fully populated context', async () => {
    const echo = echoTool();
    const model = scriptedModel([
      { toolCalls: [{ id: 'a', name: 'echo', args: { text: 'one' } }] },
      { toolCalls: [{ id: 'b', name: 'echo', args: { text: 'two' } }] },
      'Done.',
    ]);
    await agent({ model, tools: [echo] }).generate('go');
    const [first, second] = echo.calls.map((c) => c.ctx);
    expect(first.signal).toBeInstanceOf(AbortSignal);
    expect(first.toolCallId).toBe('a');
    expect(second.toolCallId).toBe('b');
    expect([first.step, second.step]).toEqual([0, 1]);
    expect(first.runId).toMatch(/^run_/);
    expect(second.runId).toBe(first.runId);
    expect(first.idempotencyKey).toBe(`${first.runId}:a`);
    expect(first.messages.at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'a', name: 'echo', args: { text: 'one' } }],
    });
    expect(second.messages).toHaveLength(4);
    expect(first.resumeValue).toBeUndefined();
  });

  it('accepts a conversation as input and does not change it', async () => {
    const input = [
      { role: 'user' as const, content: 'Hi' },
      { role: 'assistant' as const, content: 'Hello' },
      { role: 'user' as const, content: 'Again' },
    ];
    const copy = structuredClone(input);
    const result = await agent({ model: scriptedModel(['Sure.']) }).generate(input);
    expect(result.status === 'done' && result.messages).toHaveLength(4);
    expect(input).toEqual(copy);
  });

  it('answers an unknown tool with an error naming the available tools, and goes on', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'x', name: 'ehco', args: { text: 'hi' } }] },
      'Sorry.',
    ]);
    const result = await agent({
      model,
      tools: [echoTool(), echoTool({ name: 'shout' })],
    }).generate('go');
    expect(result.status === 'done' && result.steps[0].toolResults).toEqual([
      {
        type: 'tool_result',
        toolCallId: 'x',
        content: 'Unknown tool "ehco". Available tools: echo, shout.',
        isError: true,
      },
    ]);
  });

  it('answers malformed argument JSON with a validation error the model can repair from', async () => {
    const echo = echoTool();
    const model = replayModel([
      {
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'x', name: 'echo', args: '{"text": ' }],
        },
        text: '',
        toolCalls: [
          { id: 'x', name: 'echo', args: '{"text": ', argsError: 'Unexpected end of JSON input' },
        ],
        stopReason: 'tool_calls',
        usage: noUsage,
      },
      textResult('Retrying.'),
    ]);
    const result = await agent({ model, tools: [echo] }).generate('go');
    expect(echo.calls).toHaveLength(0);
    const part = result.status === 'done' ? result.steps[0].toolResults[0] : undefined;
    expect(part?.isError).toBe(true);
    expect(part?.content).toContain(
      'Invalid arguments for tool "echo": Unexpected end of JSON input',
    );
  });
});

describe('tool calls of one turn', () => {
  it('run concurrently, bounded by toolConcurrency, with results in call order', async () => {
    let active = 0;
    let peak = 0;
    const bothRunning = deferred();
    const finishOrder: string[] = [];
    const slow = tool({
      name: 'work',
      description: 'Work on an item.',
      parameters: v.object({ id: v.string() }),
      execute: async ({ id }: { id: string }) => {
        active += 1;
        peak = Math.max(peak, active);
        if (active === 2) bothRunning.resolve();
        await bothRunning.promise;
        // The first call finishes last: it waits for the others to have started and finished.
        if (id === 'c0') await new Promise((resolve) => setImmediate(resolve));
        active -= 1;
        finishOrder.push(id);
        return `done ${id}`;
      },
    });
    const ids = ['c0', 'c1', 'c2', 'c3', 'c4'];
    const model = scriptedModel([
      { toolCalls: ids.map((id) => ({ id, name: 'work', args: { id } })) },
      'All done.',
    ]);
    const result = await agent({ model, tools: [slow], toolConcurrency: 2 }).generate('go');
    expect(peak).toBe(2);
    expect(finishOrder[0]).not.toBe('c0');
    const results = result.status === 'done' ? result.steps[0].toolResults : [];
    expect(results.map((r) => r.toolCallId)).toEqual(ids);
    expect(results.map((r) => r.content)).toEqual(ids.map((id) => `done ${id}`));
  });

  it('fold a failing tool into an isError result', async () => {
    const failing = tool({
      name: 'fail',
      description: 'Always fails.',
      execute: () => {
        throw new Error('disk full');
      },
    });
    const model = scriptedModel([{ toolCalls: [{ id: 'f', name: 'fail', args: {} }] }, 'Oh no.']);
    const result = await agent({ model, tools: [failing] }).generate('go');
    const part = result.status === 'done' ? result.steps[0].toolResults[0] : undefined;
    expect(part?.isError).toBe(true);
    expect(String(part?.content)).toContain('disk full');
  });
});

describe('stopWhen', () => {
  const looping = () =>
    scriptedModel(
      Array.from({ length: 20 }, (_, i) => ({
        toolCalls: [{ id: `c${i}`, name: 'echo', args: { text: String(i) } }],
      })),
    );

  it('stops after maxSteps(n) steps with tool calls', async () => {
    const model = looping();
    const result = await agent({ model, tools: [echoTool()], stopWhen: maxSteps(2) }).generate(
      'go',
    );
    expect(result.status).toBe('done');
    expect(result.status === 'done' && result.steps).toHaveLength(2);
    expect(model.requests).toHaveLength(2);
  });

  it('defaults to 8 steps', async () => {
    const model = looping();
    await agent({ model, tools: [echoTool()] }).generate('go');
    expect(model.requests).toHaveLength(8);
  });

  it('rejects a step count that is not a positive integer', () => {
    expect(() => maxSteps(0)).toThrow(
      'maxSteps(n): expected a positive integer, received number 0',
    );
  });
});

describe('agent().stream', () => {
  it('emits step, text, tool and finish events in order, and resolves result', async () => {
    const model = scriptedModel([
      { text: 'Let me echo.', toolCalls: [{ id: 'a', name: 'echo', args: { text: 'hi' } }] },
      'Echoed.',
    ]);
    const run = agent({ model, tools: [echoTool()] }).stream('go');
    const events = await collect(run);
    expect(events.map((e) => e.type)).toEqual([
      'step-start',
      'text-delta',
      'tool-call',
      'tool-result',
      'step-finish',
      'step-start',
      'text-delta',
      'step-finish',
      'finish',
    ]);
    const result = await run.result;
    expect(result.status === 'done' && result.text).toBe('Echoed.');
    expect(events.at(-1)).toEqual({ type: 'finish', result });
  });

  it('streamText yields only the text deltas', async () => {
    const model = scriptedModel([
      { text: 'One. ', toolCalls: [{ name: 'echo', args: { text: 'x' } }] },
      'Two.',
    ]);
    const run = agent({ model, tools: [echoTool()] }).stream('go');
    expect((await collect(streamText(run))).join('')).toBe('One. Two.');
  });

  it('fails both the iteration and result when the model fails', async () => {
    const run = agent({ model: scriptedModel([new Error('provider down')]) }).stream('go');
    await expect(collect(run)).rejects.toThrow('provider down');
    await expect(run.result).rejects.toThrow('provider down');
  });

  it('emits tool-pending for a call that waits, and finishes suspended', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'r', name: 'remove', args: { text: 'x' } }] },
    ]);
    const run = agent({
      model,
      tools: [echoTool({ name: 'remove', requiresApproval: true })],
    }).stream('go');
    const events = await collect(run);
    expect(events.find((e) => e.type === 'tool-pending')).toMatchObject({
      step: 0,
      pending: { kind: 'approval', toolCallId: 'r' },
    });
    expect((await run.result).status).toBe('suspended');
  });

  it('stops with AbortError when the caller aborts during a streamed run', async () => {
    const started = deferred();
    const hang = tool({
      name: 'hang',
      description: 'Waits until cancelled.',
      execute: () => {
        started.resolve();
        return new Promise<string>(() => {});
      },
    });
    const controller = new AbortController();
    const model = scriptedModel([{ toolCalls: [{ name: 'hang', args: {} }] }]);
    const run = agent({ model, tools: [hang] }).stream('go', { signal: controller.signal });
    await started.promise;
    controller.abort();
    await expect(collect(run)).rejects.toMatchObject({ name: 'AbortError' });
    await expect(run.result).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reports no unhandled rejection when a failed run is never read', async () => {
    agent({ model: scriptedModel([new Error('nobody listens')]) }).stream('go');
    // Vitest fails the file on an unhandled rejection; give it the chance to happen.
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('runs to the end even when nobody iterates', async () => {
    const events: AgentEvent[] = [];
    const run = agent({ model: scriptedModel(['Hi.']) }).stream('go');
    expect((await run.result).status).toBe('done');
    for await (const event of run) events.push(event);
    expect(events.at(-1)?.type).toBe('finish');
  });
});

describe('agent().step', () => {
  it('takes one step at a time, returning running until done', async () => {
    const echo = echoTool();
    const model = scriptedModel([
      { toolCalls: [{ id: 'a', name: 'echo', args: { text: '1' } }] },
      'Done.',
    ]);
    const bot = agent({ model, tools: [echo] });
    const first = await bot.step('go');
    expect(first.status).toBe('running');
    expect(echo.calls).toHaveLength(1);
    expect(model.requests).toHaveLength(1);
    const second = await bot.step(JSON.parse(JSON.stringify(first.state)));
    expect(second.status).toBe('done');
    expect(second.status === 'done' && second.text).toBe('Done.');
    expect(model.requests).toHaveLength(2);
  });
});

describe('abort', () => {
  it('rejects with AbortError and aborts the running tool signal', async () => {
    const started = deferred();
    let toolSignal: AbortSignal | undefined;
    const hang = tool({
      name: 'hang',
      description: 'Waits until cancelled.',
      execute: (_args: unknown, ctx) => {
        toolSignal = ctx.signal;
        started.resolve();
        return new Promise<string>(() => {});
      },
    });
    const controller = new AbortController();
    const model = scriptedModel([{ toolCalls: [{ name: 'hang', args: {} }] }]);
    const run = agent({ model, tools: [hang] }).generate('go', { signal: controller.signal });
    await started.promise;
    controller.abort();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(toolSignal?.aborted).toBe(true);
  });

  it('does not call the model when the signal is already aborted', async () => {
    const model = scriptedModel(['never']);
    const run = agent({ model }).generate('go', { signal: AbortSignal.abort() });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(model.requests).toHaveLength(0);
  });
});

describe('agent() options', () => {
  const model = scriptedModel([]);
  it.each([
    ['model', { model: {} }, 'agent(options).model: expected a Model with generate() and stream()'],
    ['tool name', { model, tools: [echoTool(), echoTool()] }, 'two tools are named "echo"'],
    ['tool', { model, tools: [{ name: 'x' }] }, 'agent(options).tools[0]: expected a Tool'],
    [
      'toolConcurrency',
      { model, toolConcurrency: 0 },
      'toolConcurrency: expected a positive integer or Infinity',
    ],
    ['stopWhen', { model, stopWhen: [5] }, 'agent(options).stopWhen[0]: expected a stop condition'],
    ['approval', { model, approval: 'ask' }, 'agent(options).approval: expected a function'],
  ])('refuses a bad %s', (_label, options, message) => {
    expect(() => agent(options as never)).toThrow(message);
  });

  it('refuses bad run input and options with a clear error', async () => {
    const bot = agent({ model });
    await expect(bot.generate(42 as never)).rejects.toThrow(
      'agent input: expected a string or an array of messages, received number 42',
    );
    await expect(bot.generate('hi', { signal: 'x' as never })).rejects.toThrow(
      'run options.signal: expected an AbortSignal',
    );
  });
});
