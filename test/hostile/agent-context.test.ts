/**
 * Hostile input to the agent's `context` option and strategies: bad numbers, unknown
 * keys, look-alike strategies, a summary model that throws or answers nothing, a stored
 * summary that points past the messages. Each is refused with an error that names what
 * was wrong, or reported without losing anything.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentError,
  agent,
  clearToolResults,
  providerManaged,
  type RunState,
  summarize,
  trimOldest,
} from '../../src/ai/agent/index.ts';
import { type Model, scriptedModel } from '../../src/ai/model/index.ts';
import { exchanges } from '../ai/agent/context/requests.ts';

const refused = (make: () => unknown, message: string | RegExp) => {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('INVALID_ARGUMENT');
    expect((error as AgentError).message).toMatch(message);
    return;
  }
  throw new Error('expected a refusal');
};

describe('context options', () => {
  const model = scriptedModel([]);

  it('refuses bad budgets and strategy lists', () => {
    for (const maxTokens of [Number.NaN, -1, 0, 1.5, Infinity, '4000', null]) {
      refused(
        () => agent({ model, context: { maxTokens: maxTokens as number, strategy: trimOldest() } }),
        /^agent\(options\)\.context\.maxTokens: expected a positive integer, received /,
      );
    }
    refused(
      () => agent({ model, context: { strategy: [] } }),
      'agent(options).context.strategy: expected a strategy or a non-empty array of strategies, received []',
    );
    refused(
      () => agent({ model, context: null as never }),
      'agent(options).context: expected { maxTokens?, strategy }, received null',
    );
    refused(
      () =>
        agent({ model, context: { maxTokens: 10, strategy: trimOldest(), maxToken: 3 } as never }),
      /unknown option "maxToken"; did you mean "maxTokens"\?/,
    );
    // A look-alike object is not a strategy: only the factories make them.
    refused(
      () =>
        agent({
          model,
          context: { maxTokens: 10, strategy: [trimOldest(), { name: 'trimOldest' } as never] },
        }),
      /^agent\(options\)\.context\.strategy\[1\]: expected a strategy from trimOldest\(\), clearToolResults\(\), summarize\(\) or providerManaged\(\), received /,
    );
  });

  it('says what to do when the model declares no limits and no maxTokens is given', () => {
    const handWritten: Model = { id: 'mine', generate: model.generate, stream: model.stream };
    refused(
      () => agent({ model: handWritten, context: { strategy: trimOldest() } }),
      'agent(options).context.maxTokens: the model "mine" declares no limits (model.limits.contextWindow), so the budget cannot be derived; pass context.maxTokens',
    );
    expect(
      agent({ model: handWritten, context: { maxTokens: 1_000, strategy: trimOldest() } }),
    ).toBeDefined();
    const cramped = scriptedModel([], { limits: { contextWindow: 1_000, maxOutput: 1_000 } });
    refused(
      () => agent({ model: cramped, context: { strategy: trimOldest() } }),
      /leaves no input room after 1000 output tokens/,
    );
  });

  it('refuses bad strategy options', () => {
    refused(
      () => trimOldest({ keep: -1 }),
      'trimOldest(options).keep: expected a non-negative integer, received number -1',
    );
    refused(
      () => trimOldest({ keep: Number.NaN }),
      /trimOldest\(options\)\.keep: expected a non-negative integer, received number NaN/,
    );
    refused(
      () => trimOldest({ kep: 1 } as never),
      /trimOldest\(options\): unknown option "kep"; did you mean "keep"\?/,
    );
    refused(
      () => trimOldest('all' as never),
      /trimOldest\(options\): expected an options object, received/,
    );
    refused(
      () => clearToolResults({ olderThan: 1.5 }),
      /clearToolResults\(options\)\.olderThan: expected a non-negative integer, received number 1\.5/,
    );
    refused(
      () => clearToolResults({ keep: -3 }),
      /clearToolResults\(options\)\.keep: expected a non-negative integer, received number -3/,
    );
    refused(
      () => summarize({ keepLast: -1 }),
      /summarize\(options\)\.keepLast: expected a non-negative integer/,
    );
    refused(
      () => summarize({ model: {} as never }),
      /summarize\(options\)\.model: expected a Model with generate\(\), received/,
    );
    refused(
      () => summarize({ prompt: '  ' }),
      /summarize\(options\)\.prompt: expected a non-empty string/,
    );
    refused(
      () => providerManaged({}),
      /providerManaged\(options\): expected .* with at least one provider/,
    );
    refused(
      () => providerManaged({ openai: { truncation: 'always' as never } }),
      /providerManaged\(options\)\.openai: expected \{ truncation: 'auto' \| 'disabled' \}/,
    );
    refused(
      () => providerManaged({ anthropic: { edits: [] } }),
      /providerManaged\(options\)\.anthropic: expected \{ edits:/,
    );
  });

  it('refuses a non-string run option `summary`', async () => {
    const bot = agent({ model: scriptedModel(['ok']) });
    await expect(bot.generate('Hi', { summary: 42 as never })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'run options.summary: expected a string, received number 42',
    });
  });

  it('strategies are frozen: their options cannot be changed after the check', () => {
    const strategy = trimOldest({ keep: 2 });
    expect(Object.isFrozen(strategy)).toBe(true);
    expect(() => {
      (strategy as unknown as { options: { keep: number } }).options.keep = -5;
    }).toThrow(TypeError);
  });
});

describe('a summary model that fails', () => {
  for (const [what, turn] of [
    ['throws', new Error('summary service down')],
    ['answers with empty text', '   '],
  ] as const) {
    it(`${what}: the next strategy trims, the failure is a warning, nothing is stored`, async () => {
      const summarizer = scriptedModel([turn]);
      const model = scriptedModel(['ok']);
      const bot = agent({
        model,
        context: { maxTokens: 900, strategy: [summarize({ model: summarizer }), trimOldest()] },
      });
      const result = await bot.generate([...exchanges(20), { role: 'user', content: 'Now?' }]);
      expect(result.status).toBe('done');
      if (result.status !== 'done') return;
      expect(result.state.context).toBeUndefined();
      expect(result.messages).toHaveLength(42);
      expect(result.warnings.map((w) => w.message).join('\n')).toMatch(
        /context: summarize: the summary model (failed: summary service down|answered without text)/,
      );
    });
  }

  it('alone, it ends the run with CONTEXT_OVERFLOW naming why, before any request is sent', async () => {
    const cause = new Error('summary service down');
    const model = scriptedModel(['ok']);
    const bot = agent({
      model,
      context: { maxTokens: 900, strategy: summarize({ model: scriptedModel([cause]) }) },
    });
    const error = (await bot
      .generate([...exchanges(20), { role: 'user', content: 'Now?' }])
      .catch((e: unknown) => e)) as AgentError;
    expect(error.code).toBe('CONTEXT_OVERFLOW');
    expect(error.message).toContain('summarize: the summary model failed: summary service down');
    expect(error.cause).toBe(cause);
    expect(model.requests).toHaveLength(0);
  });

  it('a summary that cannot make the request fit is still checkpointed before CONTEXT_OVERFLOW', async () => {
    const states: RunState[] = [];
    const bot = agent({
      model: scriptedModel(['ok']),
      context: {
        maxTokens: 900,
        strategy: summarize({ model: scriptedModel(['Summary.']), keepLast: 0 }),
      },
    });
    const error = (await bot
      .generate([...exchanges(20), { role: 'user', content: `Now? ${'word '.repeat(900)}` }], {
        onCheckpoint: (state, { reason }) => {
          if (reason === 'context') states.push(state);
        },
      })
      .catch((e: unknown) => e)) as AgentError;
    expect(error.code).toBe('CONTEXT_OVERFLOW');
    expect(states.map((s) => s.context?.summary)).toEqual([{ text: 'Summary.', through: 40 }]);
  });

  it("a summary model's missing or bogus usage leaves the run's usage numeric", async () => {
    const summarizer = scriptedModel([]);
    const bogus = {
      ...summarizer,
      generate: async () => ({
        ...(await scriptedModel(['Summary.']).generate({ messages: [] })),
        usage: { inputTokens: 'lots', outputTokens: -5 } as never,
      }),
    };
    const bot = agent({
      model: scriptedModel([{ text: 'ok', usage: { inputTokens: 7, outputTokens: 2 } }]),
      context: { maxTokens: 900, strategy: summarize({ model: bogus, keepLast: 2 }) },
    });
    const result = await bot.generate([...exchanges(20), { role: 'user', content: 'Now?' }]);
    expect(result.status === 'done' && result.usage).toMatchObject({
      inputTokens: 7,
      outputTokens: 2,
      totalTokens: 9,
    });
  });

  it('an abort during the summary stops the run as an abort', async () => {
    const controller = new AbortController();
    const summarizer = scriptedModel([
      () => {
        controller.abort(new Error('stop'));
        return new Promise<never>(() => {});
      },
    ]);
    const bot = agent({
      model: scriptedModel(['ok']),
      context: { maxTokens: 900, strategy: [summarize({ model: summarizer }), trimOldest()] },
    });
    await expect(
      bot.generate([...exchanges(20), { role: 'user', content: 'Now?' }], {
        signal: controller.signal,
      }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('a stored summary', () => {
  it('refuses one that stands for more messages than the state has, or is not text', async () => {
    const bot = agent({ model: scriptedModel(['ok']) });
    const state: RunState = {
      version: 1,
      runId: 'r',
      messages: [{ role: 'user', content: 'Hi' }],
      steps: [],
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      context: { summary: { text: 'x', through: 5 } },
    };
    await expect(bot.resume(state)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message:
        /^state\.context\.summary: expected \{ text: string, through: an integer from 0 to 1/,
    });
    const notText = {
      ...state,
      context: { summary: { text: 7, through: 0 } },
    } as unknown as RunState;
    await expect(bot.resume(notText)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    const notObject = { ...state, context: 'x' } as unknown as RunState;
    await expect(bot.resume(notObject)).rejects.toMatchObject({ code: 'INVALID_STATE' });
  });
});
