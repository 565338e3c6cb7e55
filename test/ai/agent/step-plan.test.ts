/**
 * `agent({ activeTools, prepareStep })`: the hook before each model request changes the
 * step's model, instructions, offered tools and tool choice; what a step offered is
 * recorded, so a resumed run (from JSON, in a new agent) settles its calls the same way.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentError,
  agent,
  type PrepareStepInfo,
  type RunState,
} from '../../../src/ai/agent/index.ts';
import { fallback, ModelError, scriptedModel } from '../../../src/ai/model/index.ts';
import { echoTool } from './helpers.ts';

const names = (model: ReturnType<typeof scriptedModel>, i: number) =>
  model.requests[i].tools?.map((t) => t.name);

describe('agent({ activeTools })', () => {
  it('offers only the active tools', async () => {
    const model = scriptedModel(['ok']);
    const bot = agent({
      model,
      tools: [echoTool(), echoTool({ name: 'refund' })],
      activeTools: ['echo'],
    });
    await bot.generate('hi');
    expect(names(model, 0)).toEqual(['echo']);
  });

  it('refuses a name that is not a tool of the agent, naming it and the tools', () => {
    expect(() =>
      agent({ model: scriptedModel([]), tools: [echoTool()], activeTools: ['echo', 'refnud'] }),
    ).toThrow(
      'agent(options).activeTools[1]: "refnud" is not a tool of this agent; its tools are echo',
    );
  });
});

describe('agent({ prepareStep })', () => {
  it('changes the model, instructions, tools and tool choice of one step, and records the model', async () => {
    const first = scriptedModel(
      [{ toolCalls: [{ id: 'c1', name: 'echo', args: { text: 'a' } }] }],
      { id: 'openai:gpt-4.1' },
    );
    const second = scriptedModel(['Done.'], { id: 'anthropic:claude-sonnet-4-5' });
    const seen: PrepareStepInfo[] = [];
    const bot = agent({
      name: 'planner',
      model: first,
      instructions: 'Be brief.',
      tools: [echoTool(), echoTool({ name: 'refund' })],
      prepareStep: (info) => {
        seen.push(info);
        if (info.step === 0) return { toolChoice: { name: 'echo' }, activeTools: ['echo'] };
        return { model: second, instructions: 'Summarise.', activeTools: [], toolChoice: 'none' };
      },
    });
    const result = await bot.generate('Echo a');
    expect(result.status === 'done' && result.steps.map((s) => s.model)).toEqual([
      'openai:gpt-4.1',
      'anthropic:claude-sonnet-4-5',
    ]);
    expect(first.requests).toHaveLength(1);
    expect(first.requests[0]).toMatchObject({ system: 'Be brief.', toolChoice: { name: 'echo' } });
    expect(names(first, 0)).toEqual(['echo']);
    expect(second.requests[0].system).toBe('Summarise.');
    expect(second.requests[0].tools).toBeUndefined();
    expect(seen.map((i) => [i.step, i.steps.length, i.messages.length, i.agent])).toEqual([
      [0, 0, 1, 'planner'],
      [1, 1, 3, 'planner'],
    ]);
    expect(result.status === 'done' && result.steps.map((s) => s.activeTools)).toEqual([
      ['echo'],
      [],
    ]);
  });

  it('backs the step’s model with the agent’s fallbackModels', async () => {
    const chosen = scriptedModel(
      [new ModelError('x: 503', { provider: 'x', status: 503, retryable: true })],
      { id: 'x:chosen' },
    );
    const backup = scriptedModel(['From the backup.'], { id: 'y:backup' });
    const bot = agent({
      model: scriptedModel([], { id: 'z:default' }),
      fallbackModels: [backup],
      prepareStep: () => ({ model: chosen }),
    });
    const result = await bot.generate('hi');
    expect(result.status === 'done' && result.steps[0].model).toBe('y:backup');
    expect(chosen.requests).toHaveLength(1);
  });

  it('answers a call of a tool the step did not offer with an error, also when a new agent resumes the step from JSON', async () => {
    const calls = {
      toolCalls: [
        { id: 'c1', name: 'lookup', args: { text: 'order 1' } },
        { id: 'c2', name: 'refund', args: { text: 'order 1' } },
      ],
    };
    let saved = '';
    const crashed = await agent({
      model: scriptedModel([calls]),
      tools: [echoTool({ name: 'lookup' }), echoTool({ name: 'refund' })],
      prepareStep: ({ step }) => (step === 0 ? { activeTools: ['lookup'] } : undefined),
    })
      .generate('Go', {
        onCheckpoint: (state, { reason }) => {
          if (reason !== 'model-turn') return;
          saved = JSON.stringify(state);
          throw new Error('crash before the calls ran');
        },
      })
      .catch((e: unknown) => e);
    expect(crashed).toMatchObject({ message: 'crash before the calls ran' });

    // Another agent, without prepareStep: the step's record decides what it offered.
    const refund = echoTool({ name: 'refund' });
    const model = scriptedModel(['Looked it up.']);
    const state = JSON.parse(saved) as RunState;
    expect(state.steps[0].activeTools).toEqual(['lookup']);
    const done = await agent({ model, tools: [echoTool({ name: 'lookup' }), refund] }).resume(
      state,
      {},
    );
    expect(done.status).toBe('done');
    expect(refund.calls).toHaveLength(0);
    expect(done.status === 'done' && done.steps[0].toolResults).toEqual([
      expect.objectContaining({ toolCallId: 'c1', content: 'echo: order 1' }),
      expect.objectContaining({
        toolCallId: 'c2',
        isError: true,
        content: 'Tool "refund" is not available at this step: it was not among the tools offered.',
      }),
    ]);
    // Step 1 offers every tool again.
    expect(names(model, 0)).toEqual(['lookup', 'refund']);
  });

  it('refuses what it returns wrong with INVALID_ARGUMENT naming it', async () => {
    const run = (settings: unknown) =>
      agent({
        model: scriptedModel(['never']),
        tools: [echoTool()],
        prepareStep: () => settings as undefined,
      })
        .generate('hi')
        .catch((e: unknown) => e);
    const cases: [unknown, string][] = [
      [
        { activeTools: ['echo', 'refund'] },
        'agent(options).prepareStep returned activeTools[1]: "refund" is not a tool of this agent; its tools are echo',
      ],
      [
        { model: 'gpt-4.1' },
        'agent(options).prepareStep returned model: expected a Model with generate() and stream(), received string "gpt-4.1"',
      ],
      [
        { toolChoice: { name: 'refund' } },
        'agent(options).prepareStep returned toolChoice: names the tool "refund", which is not among the agent\'s tools',
      ],
      [
        { instructions: 7 },
        'agent(options).prepareStep returned instructions: expected a string, received number 7',
      ],
      [{ tools: ['echo'] }, 'agent(options).prepareStep returned: unknown option "tools"'],
      [
        'fast',
        'agent(options).prepareStep returned string "fast": expected StepSettings or undefined',
      ],
    ];
    for (const [settings, message] of cases) {
      const error = await run(settings);
      expect(error).toBeInstanceOf(AgentError);
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
      expect((error as Error).message).toContain(message);
    }
    expect(() => agent({ model: scriptedModel([]), prepareStep: 'x' as never })).toThrow(
      /agent\(options\)\.prepareStep: expected a function/,
    );
  });

  it('a hook that hangs is ended by the run’s abort', async () => {
    const controller = new AbortController();
    const model = scriptedModel(['never']);
    const bot = agent({
      model,
      prepareStep: () => {
        controller.abort();
        return new Promise<undefined>(() => {});
      },
    });
    const error = await bot.generate('hi', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(model.requests).toHaveLength(0);
  });

  it('a fallback() model returned by the hook is used as given', async () => {
    const model = fallback([scriptedModel(['one'], { id: 'a:one' })]);
    const bot = agent({ model: scriptedModel([]), prepareStep: () => ({ model }) });
    const result = await bot.generate('hi');
    expect(result.status === 'done' && result.steps[0].model).toBe('a:one');
  });
});
