import { describe, expect, it } from 'vitest';
import {
  AgentError,
  addUsage,
  agent,
  BudgetExceededError,
  type RunResult,
  type RunState,
} from '../../../src/ai/agent/index.ts';
import { addCosts, scriptedModel, type Usage } from '../../../src/ai/model/index.ts';
import { echoTool } from './helpers.ts';

/** Odd rates and token counts, so float sums would drift. */
const prices = { cheap: { input: 0.15, output: 0.6, cachedInput: 0.075 } };

const call = (i: number, usage: Partial<Usage>) => ({
  toolCalls: [{ id: `c${i}`, name: 'echo', args: { text: `t${i}` } }],
  usage,
});

const script = () => [
  call(0, { inputTokens: 1237, outputTokens: 91, cachedInputTokens: 333 }),
  call(1, { inputTokens: 1811, outputTokens: 77, cachedInputTokens: 1001 }),
  call(2, { inputTokens: 2459, outputTokens: 103 }),
  { text: 'Done.', usage: { inputTokens: 2999, outputTokens: 17, cachedInputTokens: 2000 } },
];

const sumOfSteps = (result: RunResult) =>
  result.state.steps.reduce<number | 'unknown'>(
    (sum, step) => addCosts(sum, step.usage.cost ?? 'unknown'),
    0,
  );

const done = (result: RunResult) => {
  if (result.status !== 'done') throw new Error(`expected done, got ${result.status}`);
  return result;
};

describe('usage.cost', () => {
  it('is set on every step and on the run, from the prices', async () => {
    const bot = agent({
      model: scriptedModel(script(), { id: 'acme:cheap' }),
      tools: [echoTool()],
      prices,
    });
    const result = done(await bot.generate('Go'));
    // step 0: (1237 - 333) × 0.15 + 333 × 0.075 + 91 × 0.6 per million
    expect(result.steps[0].usage.cost).toBe(0.000215175);
    for (const step of result.steps) expect(typeof step.usage.cost).toBe('number');
    expect(result.usage.cost).toBe(sumOfSteps(result));
  });

  it("is 'unknown', never 0, for a model without a price", async () => {
    const bot = agent({
      model: scriptedModel(script(), { id: 'acme:mystery' }),
      tools: [echoTool()],
    });
    const result = done(await bot.generate('Go'));
    expect(result.steps.map((s) => s.usage.cost)).toEqual(Array(4).fill('unknown'));
    expect(result.usage.cost).toBe('unknown');
  });

  it('uses the shipped table for a dated snapshot of a known model', async () => {
    const model = scriptedModel(
      [{ text: 'Hi', usage: { inputTokens: 10_000, outputTokens: 2_000 } }],
      {
        id: 'openai:gpt-4.1-2025-04-14',
      },
    );
    const result = done(await agent({ model }).generate('Hello'));
    expect(result.usage.cost).toBe(0.036);
  });

  it('sums exactly across suspensions, JSON round trips and resumes', async () => {
    const uninterrupted = done(
      await agent({
        model: scriptedModel(script(), { id: 'acme:cheap' }),
        tools: [echoTool()],
        prices,
      }).generate('Go'),
    );
    const bot = agent({
      model: scriptedModel(script(), { id: 'acme:cheap' }),
      tools: [echoTool({ requiresApproval: true })],
      prices,
    });
    let result = await bot.generate('Go');
    let resumes = 0;
    while (result.status === 'suspended') {
      const stored = JSON.parse(JSON.stringify(result.state)) as RunState;
      const id = result.pending[0].toolCallId;
      result = await bot.resume(stored, { [id]: { approve: true } });
      resumes++;
    }
    expect(resumes).toBe(3);
    const resumed = done(result);
    expect(resumed.usage.cost).toBe(uninterrupted.usage.cost);
    expect(resumed.usage.cost).toBe(sumOfSteps(resumed));
    expect(resumed.usage.totalTokens).toBe(uninterrupted.usage.totalTokens);
  });

  it("addUsage: 'unknown' wins; a usage with tokens and no cost is unknown", () => {
    const total: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    addUsage(total, { inputTokens: 1, outputTokens: 1, totalTokens: 2, cost: 0.1 });
    addUsage(total, { inputTokens: 1, outputTokens: 1, totalTokens: 2, cost: 0.2 });
    expect(total.cost).toBe(0.3);
    addUsage(total, { inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    expect(total.cost).toBe('unknown');
    addUsage(total, { inputTokens: 1, outputTokens: 1, totalTokens: 2, cost: 5 });
    expect(total.cost).toBe('unknown');
    const plain: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    addUsage(plain, { inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    expect(plain.cost).toBeUndefined();
  });
});

describe('budgets', () => {
  it('stop a run mid-loop with BUDGET_EXCEEDED and its state; a higher budget finishes it, each tool once', async () => {
    const echo = echoTool();
    let requests = 0;
    const model = scriptedModel(script(), { id: 'acme:cheap' });
    const counted = {
      ...model,
      id: model.id,
      generate: (request: Parameters<typeof model.generate>[0]) => {
        requests++;
        return model.generate(request);
      },
    };
    const bot = agent({ model: counted, tools: [echo], prices, budget: { maxTokens: 3000 } });
    let stopped: unknown;
    try {
      await bot.generate('Go');
    } catch (error) {
      stopped = error;
    }
    expect(stopped).toBeInstanceOf(BudgetExceededError);
    const error = stopped as BudgetExceededError;
    expect(error).toBeInstanceOf(AgentError);
    expect(error.code).toBe('BUDGET_EXCEEDED');
    expect(error.limit).toBe('maxTokens');
    expect(error.spent).toBe(1328 + 1888);
    expect(error.message).toMatch(/spent 3216 tokens of its budget maxTokens: 3000/);
    // the second turn crossed the limit: its tool call waits in the state, not run
    expect(error.state.steps).toHaveLength(2);
    expect(error.state.turn?.step).toBe(1);
    expect(echo.calls.map((c) => c.args.text)).toEqual(['t0']);
    expect(requests).toBe(2);

    // the same budget stops it again before any model request
    const stored = JSON.parse(JSON.stringify(error.state)) as RunState;
    await expect(bot.resume(stored)).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED' });
    expect(requests).toBe(2);
    expect(echo.calls).toHaveLength(1);

    const result = done(await bot.resume(stored, {}, { budget: { maxTokens: 100_000 } }));
    expect(result.text).toBe('Done.');
    expect(echo.calls.map((c) => c.args.text)).toEqual(['t0', 't1', 't2']);
    expect(requests).toBe(4);
    expect(result.usage.cost).toBe(sumOfSteps(result));
  });

  it('maxCost stops a run before the request after the one that spent it', async () => {
    const bot = agent({
      model: scriptedModel(script(), { id: 'acme:cheap' }),
      tools: [echoTool()],
      prices,
      budget: { maxCost: 0.0004 },
    });
    const error = (await bot.generate('Go').catch((e: unknown) => e)) as BudgetExceededError;
    expect(error.code).toBe('BUDGET_EXCEEDED');
    expect(error.limit).toBe('maxCost');
    expect(error.spent).toBe(error.state.usage.cost);
    expect(error.spent as number).toBeGreaterThanOrEqual(0.0004);
    const result = done(await bot.resume(error.state, {}, { budget: { maxCost: Infinity } }));
    expect(result.usage.cost).toBe(sumOfSteps(result));
  });

  it('stops streamed and stepped runs too; with stateSecret the error carries a signed state that resumes', async () => {
    const secret = 'a-secret-of-at-least-thirty-two-bytes!';
    const bot = agent({
      model: scriptedModel(script(), { id: 'acme:cheap' }),
      tools: [echoTool()],
      prices,
      budget: { maxTokens: 1000 },
      stateSecret: secret,
    });
    const run = bot.stream('Go');
    const seen: string[] = [];
    const iterate = (async () => {
      for await (const event of run) seen.push(event.type);
    })();
    const error = (await run.result.catch((e: unknown) => e)) as BudgetExceededError;
    await iterate.catch(() => {});
    expect(error.code).toBe('BUDGET_EXCEEDED');
    expect(seen).toContain('tool-call');
    expect(seen).not.toContain('tool-result');
    expect(error.state.signature).toMatch(/^hmac-sha256:/);
    const edited = { ...error.state, usage: { ...error.state.usage, totalTokens: 0 } };
    await expect(bot.resume(edited, {}, { budget: { maxTokens: 100_000 } })).rejects.toMatchObject({
      code: 'INVALID_SIGNATURE',
    });
    const stepped = await bot.step(error.state, { budget: { maxTokens: 100_000 } });
    expect(stepped.status).toBe('running');
    await expect(bot.step(stepped.state)).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED' });
  });

  it('keeps a final answer that crosses the budget', async () => {
    const bot = agent({
      model: scriptedModel([
        { text: 'Long answer', usage: { inputTokens: 10, outputTokens: 900 } },
      ]),
      budget: { maxTokens: 100 },
    });
    const result = done(await bot.generate('Hi'));
    expect(result.usage.totalTokens).toBe(910);
  });

  it('refuses maxCost for a model without a price, at agent creation and per run', async () => {
    const model = scriptedModel(['Hi'], { id: 'acme:mystery' });
    expect(() => agent({ model, budget: { maxCost: 1 } })).toThrow(
      /agent\(options\)\.budget\.maxCost: the model "acme:mystery" has no price/,
    );
    const bot = agent({ model });
    await expect(bot.generate('Hi', { budget: { maxCost: 1 } })).rejects.toThrow(
      /run options\.budget\.maxCost: the model "acme:mystery" has no price/,
    );
    expect(() =>
      agent({ model, budget: { maxCost: 1 }, prices: { mystery: { input: 1, output: 1 } } }),
    ).not.toThrow();
  });

  it('refuses budgets of the wrong shape, naming what was expected', () => {
    const model = scriptedModel(['Hi'], { id: 'openai:gpt-4.1' });
    const bad = (budget: unknown) => () => agent({ model, budget: budget as never });
    expect(bad(5)).toThrow(/budget: expected \{ maxCost\?, maxTokens\? \}/);
    expect(bad({ maxCost: -1 })).toThrow(/maxCost: expected a number of USD > 0/);
    expect(bad({ maxCost: Number.NaN })).toThrow(/maxCost: expected a number of USD > 0/);
    expect(bad({ maxCost: '1' })).toThrow(/maxCost: expected a number/);
    expect(bad({ maxTokens: 1.5 })).toThrow(/maxTokens: expected a positive integer/);
    expect(bad({ maxTokens: 0 })).toThrow(/maxTokens: expected a positive integer/);
    expect(bad({ maxCosts: 1 })).toThrow(/unknown option "maxCosts"; did you mean "maxCost"/);
  });
});
