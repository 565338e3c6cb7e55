import { describe, expect, it } from 'vitest';
import { AgentOutputError, agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { collect, echoTool } from './helpers.ts';

const named = (name: string) =>
  tool({ name, description: 'x', parameters: v.object({}), execute: () => 'ok' });

describe('agent options that reach the model', () => {
  it('sends maxTokens, temperature, toolChoice, reasoning and providerOptions with every turn', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', args: { text: 'a' } }] }, 'ok']);
    const bot = agent({
      model,
      tools: [echoTool()],
      maxTokens: 300,
      temperature: 0.3,
      toolChoice: { name: 'echo' },
      reasoning: { effort: 'low' },
      providerOptions: { openai: { seed: 7 } },
    });
    await bot.generate('go');
    expect(model.requests).toHaveLength(2);
    for (const request of model.requests) {
      expect(request).toMatchObject({
        maxTokens: 300,
        temperature: 0.3,
        toolChoice: { name: 'echo' },
        reasoning: { effort: 'low' },
        providerOptions: { openai: { seed: 7 } },
      });
    }
  });

  it('sends no toolChoice without tools, and the output schema as JSON Schema', async () => {
    const model = scriptedModel(['{"n":1}']);
    const bot = agent({ model, toolChoice: 'required', output: v.object({ n: v.number() }) });
    await bot.generate('go');
    expect(model.requests[0]).not.toHaveProperty('toolChoice');
    expect(model.requests[0].output).toEqual({
      schema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    });
  });

  it('rejects bad options with errors naming the option and what was expected', () => {
    const model = scriptedModel([]);
    expect(() => agent({ model, maxTokens: 0 })).toThrow(
      'agent(options).maxTokens: expected a positive integer, received number 0',
    );
    expect(() => agent({ model, temperature: Number.NaN })).toThrow(
      'agent(options).temperature: expected a finite number ≥ 0, received number NaN',
    );
    expect(() => agent({ model, toolChoice: 'always' as 'auto' })).toThrow(
      `agent(options).toolChoice: expected 'auto', 'none', 'required' or { name }, received string "always"`,
    );
    expect(() => agent({ model, toolChoice: { name: 'nope' } })).toThrow(
      `agent(options).toolChoice: names the tool "nope", which is not among the agent's tools`,
    );
    expect(() => agent({ model, output: { type: 'array' } })).toThrow(
      `agent(options).output: expected an object schema (type: 'object')`,
    );
    expect(() => agent({ model, output: 42 as never })).toThrow(
      'agent(options).output: expected a schema',
    );
    expect(() => agent({ model, providerOptions: 'seed' as never })).toThrow(
      'agent(options).providerOptions: expected an object keyed by provider name, received string "seed"',
    );
  });
});

describe('tool names', () => {
  it.each(['get weather', 'ns.tool', 'a'.repeat(65), 'météo'])(
    'rejects %j at agent(), naming the tool and the rule',
    (name) => {
      expect(() => agent({ model: scriptedModel([]), tools: [named(name)] })).toThrow(
        /agent\(options\)\.tools\[0\]: the tool name ".*" breaks the providers' rule \/\^\[a-zA-Z0-9_-\]\{1,64\}\$\//,
      );
    },
  );

  it('accepts letters, digits, _ and - up to 64 characters', () => {
    expect(() =>
      agent({ model: scriptedModel([]), tools: [named('get_weather-2'), named('a'.repeat(64))] }),
    ).not.toThrow();
  });
});

describe('structured output', () => {
  const schema = v.object({ city: v.string() });

  it('returns the validated answer, typed from the schema', async () => {
    const result = await agent({
      model: scriptedModel(['{"city":"Oslo"}']),
      output: schema,
    }).generate('?');
    if (result.status !== 'done') throw new Error('expected done');
    const city: string | undefined = result.output?.city;
    expect(city).toBe('Oslo');
    expect(result.state.output).toEqual({ city: 'Oslo' });
  });

  it('prefers the provider’s parsed output (strict-mode rewrites undone) to the text', async () => {
    const model = scriptedModel(['{"city":null}']);
    const withOutput = {
      ...model,
      generate: async (request: Parameters<typeof model.generate>[0]) => ({
        ...(await model.generate(request)),
        output: { city: 'Oslo' },
      }),
    };
    const result = await agent({ model: withOutput, output: schema }).generate('?');
    expect(result.status === 'done' && result.output).toEqual({ city: 'Oslo' });
  });

  it('sends the issues back once, then fails with AgentOutputError', async () => {
    const model = scriptedModel(['not json', '{"town":"Oslo"}']);
    const bot = agent({ model, output: schema });
    const failure = await bot.generate('?').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AgentOutputError);
    expect((failure as AgentOutputError).text).toBe('{"town":"Oslo"}');
    expect((failure as AgentOutputError).message).toContain('city');
    expect(model.requests[1].messages.at(-1)).toEqual({
      role: 'user',
      content: expect.stringContaining('The answer was not JSON'),
    });
  });

  it('leaves output undefined when a stop condition ends the run before the final answer', async () => {
    const { maxSteps } = await import('../../../src/ai/agent/index.ts');
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', args: { text: 'a' } }] }]);
    const result = await agent({
      model,
      tools: [echoTool()],
      output: schema,
      stopWhen: maxSteps(1),
    }).generate('?');
    expect(result.status === 'done' && result.output).toBeUndefined();
  });
});

describe('warnings and reasoning', () => {
  const dropped = { message: 'messages[0]: audio part not sent' };
  const strict = {
    tool: 'echo',
    path: '/properties/x',
    keyword: 'format',
    message: 'format removed',
  };

  it('collects every distinct provider warning of the run in result.warnings and warning events', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'echo', args: { text: 'a' } }], warnings: [dropped, strict] },
      { text: 'done', warnings: [strict, dropped] },
    ]);
    const run = agent({ model, tools: [echoTool()] }).stream('go');
    const events = await collect(run);
    const result = await run.result;
    expect(result.status === 'done' && result.warnings).toEqual([dropped, strict]);
    expect(events.filter((e) => e.type === 'warning')).toEqual([
      { type: 'warning', step: 0, warning: dropped },
      { type: 'warning', step: 0, warning: strict },
    ]);
  });

  it('has empty warnings when the provider reported none', async () => {
    const result = await agent({ model: scriptedModel(['hi']) }).generate('go');
    expect(result.status === 'done' && result.warnings).toEqual([]);
  });

  it('streams reasoning as reasoning-delta events', async () => {
    const run = agent({ model: scriptedModel([{ reasoning: 'Think.', text: 'Hi' }]) }).stream('go');
    const events = await collect(run);
    expect(events.filter((e) => e.type === 'reasoning-delta' || e.type === 'text-delta')).toEqual([
      { type: 'reasoning-delta', step: 0, text: 'Think.' },
      { type: 'text-delta', step: 0, text: 'Hi' },
    ]);
  });
});
