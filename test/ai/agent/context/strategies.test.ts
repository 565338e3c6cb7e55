/** The context strategies one by one and composed, through the agent, on what the model was sent. */
import { describe, expect, it } from 'vitest';
import {
  AgentError,
  type AgentEvent,
  agent,
  type CheckpointReason,
  clearToolResults,
  providerManaged,
  type RunState,
  summarize,
  trimOldest,
} from '../../../../src/ai/agent/index.ts';
import {
  estimateTokens,
  type GenerateRequest,
  type ModelMessage,
  scriptedModel,
} from '../../../../src/ai/model/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';
import { exchanges, expectPaired } from './requests.ts';

const big = tool({
  name: 'big',
  description: 'Return a long text.',
  parameters: v.object({ n: v.number() }),
  execute: ({ n }: { n: number }) => `result ${n}: ${'data '.repeat(400)}`,
});

const toolLoop = (calls: number, last = 'Done.') => [
  ...Array.from({ length: calls }, (_, n) => ({
    toolCalls: [{ id: `c${n}`, name: 'big', args: { n } }],
  })),
  last,
];

const contextEvents = (events: AgentEvent[]) =>
  events.filter((e): e is Extract<AgentEvent, { type: 'context' }> => e.type === 'context');

describe('trimOldest', () => {
  it('sends everything while it fits, and reports nothing', async () => {
    const model = scriptedModel(['ok']);
    const bot = agent({ model, context: { maxTokens: 100_000, strategy: trimOldest() } });
    const result = await bot.generate([...exchanges(3), { role: 'user', content: 'Now?' }]);
    expect(model.requests[0].messages).toHaveLength(7);
    expect(result.status === 'done' && result.warnings).toEqual([]);
  });

  it('drops whole earlier exchanges, keeps system messages and the latest user message, reports it, and keeps the state whole', async () => {
    const model = scriptedModel(['ok']);
    const bot = agent({
      model,
      instructions: 'Be brief.',
      context: { maxTokens: 800, strategy: trimOldest() },
    });
    const input: ModelMessage[] = [
      { role: 'system', content: 'House rules.' },
      ...exchanges(20),
      { role: 'user', content: 'Now?' },
    ];
    const run = bot.stream(input);
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result;
    const sent = model.requests[0];
    expect(estimateTokens(sent, model)).toBeLessThanOrEqual(800);
    expect(sent.system).toBe('Be brief.');
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'House rules.' });
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'Now?' });
    // What is sent is the latest exchanges, whole, starting with a user message.
    expect(sent.messages[1].role).toBe('user');
    const firstSent = input.indexOf(input.find((m) => m.content === sent.messages[1].content)!);
    expect(sent.messages.slice(1)).toEqual(input.slice(firstSent));
    expect(result.status === 'done' && result.messages).toHaveLength(input.length + 1);
    const [event] = contextEvents(events);
    expect(event).toMatchObject({ step: 0, maxTokens: 800, cleared: 0, dropped: firstSent - 1 });
    expect(event.tokens.before).toBeGreaterThan(800);
    expect(event.tokens.after).toBeLessThanOrEqual(800);
    expect(result.status === 'done' && result.warnings.map((w) => w.message)).toEqual([
      'context: older messages were left out of requests to fit context.maxTokens; the state keeps them',
    ]);
  });

  it('drops the oldest tool-call pairs of a long tool loop, never the question or the latest results', async () => {
    const model = scriptedModel(toolLoop(12));
    const bot = agent({
      model,
      tools: [big],
      stopWhen: [],
      context: { maxTokens: 2_500, strategy: trimOldest() },
    });
    await bot.generate('Go.');
    for (const request of model.requests) {
      expect(estimateTokens(request, model)).toBeLessThanOrEqual(2_500);
      expect(request.messages[0]).toEqual({ role: 'user', content: 'Go.' });
      expectPaired(request);
    }
    const last = model.requests.at(-1)!;
    expect(last.messages.length).toBeLessThan(1 + 2 * 12);
    expect(JSON.stringify(last.messages.at(-1))).toContain('result 11');
  });

  it('never drops the latest `keep` messages: fails clearly when they do not fit', async () => {
    const model = scriptedModel(['ok']);
    const bot = agent({ model, context: { maxTokens: 800, strategy: trimOldest({ keep: 12 }) } });
    const error = await bot
      .generate([...exchanges(20), { role: 'user', content: 'Now?' }])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('CONTEXT_OVERFLOW');
    expect(model.requests).toHaveLength(0);
  });
});

describe('clearToolResults', () => {
  it('sends old results as placeholders naming an id that read_result pages back, keeping the latest ones', async () => {
    let placeholderId = '';
    const model = scriptedModel([
      ...toolLoop(6).slice(0, 6),
      (request: GenerateRequest) => {
        const text = JSON.stringify(request.messages);
        placeholderId = /\\"id\\":\\"([^\\]+)\\"/.exec(text)![1];
        expect(request.tools?.map((t) => t.name)).toContain('read_result');
        return {
          toolCalls: [{ id: 'r1', name: 'read_result', args: { id: placeholderId, offset: 0 } }],
        };
      },
      'Done.',
    ]);
    const bot = agent({
      model,
      tools: [big],
      stopWhen: [],
      context: { maxTokens: 3_000, strategy: clearToolResults({ keep: 2 }) },
    });
    const result = await bot.generate('Go.');
    expect(result.status).toBe('done');
    const sixth = model.requests[6];
    expectPaired(sixth);
    const results = sixth.messages.flatMap((m) =>
      Array.isArray(m.content) ? m.content.filter((p) => p.type === 'tool_result') : [],
    );
    expect(results).toHaveLength(6);
    // The two latest whole, the oldest cleared.
    expect(JSON.stringify(results.slice(-2))).toContain('result 5');
    expect(JSON.stringify(results[0])).toContain('cleared to fit the context window');
    expect(placeholderId).toBe('c0@2');
    // read_result answered with the original result, from the state.
    const answer = model.requests[7].messages.at(-1)!.content as { content: string }[];
    expect(answer[0].content).toContain('result 0: data data');
    expect(result.status === 'done' && result.state.messages[2]).toEqual(
      (result as { state: RunState }).state.messages[2],
    );
    const kept = (result as { state: RunState }).state.messages[2].content as { content: string }[];
    expect(kept[0].content).toContain('result 0: data');
  });

  it('leaves results of the last `olderThan` turns alone', async () => {
    const model = scriptedModel(toolLoop(5));
    const bot = agent({
      model,
      tools: [big],
      stopWhen: [],
      context: {
        maxTokens: 100_000,
        strategy: [clearToolResults({ keep: 0, olderThan: 3 })],
      },
    });
    await bot.generate('Go.');
    expect(JSON.stringify(model.requests)).not.toContain('cleared to fit');
    const tight = scriptedModel(toolLoop(5));
    const squeezed = agent({
      model: tight,
      tools: [big],
      stopWhen: [],
      context: {
        maxTokens: 2_600,
        strategy: [clearToolResults({ keep: 0, olderThan: 3 }), trimOldest()],
      },
    });
    await squeezed.generate('Go.');
    const sent = JSON.stringify(tight.requests.at(-1)!.messages);
    // Results 0 and 1 have 3 or more model turns after them; 2, 3 and 4 do not.
    expect(sent).toContain('cleared to fit');
    for (const n of [0, 1]) expect(sent).not.toContain(`result ${n}: data data`);
    for (const n of [2, 3, 4]) expect(sent).toContain(`result ${n}: data data`);
  });
});

describe('summarize', () => {
  it('summarises once when the request is too long, sends the summary at the end of the system prompt, checkpoints it, and counts its usage', async () => {
    const summarizer = scriptedModel([
      {
        text: 'Ada asked 20 questions about kettles.',
        usage: { inputTokens: 900, outputTokens: 9 },
      },
    ]);
    const model = scriptedModel(toolLoop(3));
    const reasons: CheckpointReason[] = [];
    let checkpointed: RunState | undefined;
    const bot = agent({
      model,
      instructions: 'Be brief.',
      tools: [big],
      stopWhen: [],
      context: { maxTokens: 3_000, strategy: summarize({ model: summarizer, keepLast: 2 }) },
    });
    const result = await bot.generate([...exchanges(20), { role: 'user', content: 'Now?' }], {
      onCheckpoint: (state, { reason }) => {
        reasons.push(reason);
        if (reason === 'context') checkpointed = state;
      },
    });
    expect(result.status).toBe('done');
    if (result.status !== 'done') return;
    expect(summarizer.requests).toHaveLength(1);
    const asked = summarizer.requests[0].messages[0].content as string;
    expect(asked).toContain('Question 0:');
    expect(asked).toContain('Answer 18:');
    expect(asked).not.toContain('Question 19:');
    expect(reasons[0]).toBe('context');
    expect(checkpointed?.context?.summary).toEqual({
      text: 'Ada asked 20 questions about kettles.',
      through: 38,
    });
    expect(result.state.context?.summary?.through).toBe(38);
    for (const request of model.requests) {
      expect(request.system).toBe(
        'Be brief.\n\nSummary of the earlier conversation (its messages are not repeated below):\nAda asked 20 questions about kettles.',
      );
      // keepLast: 2 starts the kept messages at the last exchange's question.
      expect(request.messages.slice(0, 3)).toEqual(result.messages.slice(38, 41));
      expectPaired(request);
    }
    expect(result.usage.inputTokens).toBe(900);
    expect(result.messages).toHaveLength(41 + 2 * 3 + 1);
    expect(result.warnings.map((w) => w.message)).toContain(
      'context: older messages were replaced by a summary (state.context.summary) to fit context.maxTokens; the state keeps them',
    );
  });

  it('starts from the run option `summary`, and merges it into the next summary', async () => {
    const summarizer = scriptedModel(['New summary.']);
    const model = scriptedModel(['ok', 'ok again']);
    const bot = agent({
      model,
      context: { maxTokens: 1_000, strategy: summarize({ model: summarizer, keepLast: 2 }) },
    });
    const first = await bot.generate('Hi', { summary: 'Earlier: Ada likes tea.' });
    expect(model.requests[0].system).toContain('Earlier: Ada likes tea.');
    expect(first.status === 'done' && first.state.context?.summary).toEqual({
      text: 'Earlier: Ada likes tea.',
      through: 0,
    });
    await bot.generate([...exchanges(20), { role: 'user', content: 'Now?' }], {
      summary: 'Earlier: Ada likes tea.',
    });
    expect(summarizer.requests[0].messages[0].content).toMatch(
      /^Earlier summary:\nEarlier: Ada likes tea\./,
    );
    expect(model.requests[1].system).toContain('New summary.');
    expect(model.requests[1].system).not.toContain('Ada likes tea');
  });

  it("adds the summary request's usage and cost, priced for the summary model, to the run's", async () => {
    const id = 'openai:gpt-4.1'; // $2 in, $8 out per million tokens
    const summarizer = scriptedModel(
      [{ text: 'Summary.', usage: { inputTokens: 1_000, outputTokens: 100 } }],
      { id },
    );
    const model = scriptedModel([{ text: 'ok', usage: { inputTokens: 500, outputTokens: 10 } }], {
      id,
    });
    const bot = agent({
      model,
      context: { maxTokens: 1_000, strategy: summarize({ model: summarizer, keepLast: 2 }) },
    });
    const result = await bot.generate([...exchanges(20), { role: 'user', content: 'Now?' }]);
    expect(result.status === 'done' && result.usage).toMatchObject({
      inputTokens: 1_500,
      outputTokens: 110,
      totalTokens: 1_610,
    });
    expect(result.status === 'done' && result.usage.cost).toBeCloseTo(0.0028 + 0.00108, 10);
    // The step's own usage is the model turn's alone.
    expect(result.status === 'done' && result.steps[0].usage.cost).toBeCloseTo(0.00108, 10);
  });

  it('sends the summary without a context option too', async () => {
    const model = scriptedModel(['ok']);
    await agent({ model, instructions: 'Hi.' }).generate('Go', { summary: 'S.' });
    expect(model.requests[0].system).toBe(
      'Hi.\n\nSummary of the earlier conversation (its messages are not repeated below):\nS.',
    );
  });
});

describe('composed strategies', () => {
  it('run in order and stop as soon as the request fits', async () => {
    const summarizer = scriptedModel(['Summary.']);
    const model = scriptedModel(toolLoop(8));
    const bot = agent({
      model,
      tools: [big],
      stopWhen: [],
      context: {
        maxTokens: 3_000,
        strategy: [clearToolResults({ keep: 1 }), summarize({ model: summarizer }), trimOldest()],
      },
    });
    const run = bot.stream('Go.');
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    // Clearing results is enough for this loop: no summary was asked for.
    expect(summarizer.requests).toHaveLength(0);
    const context = contextEvents(events);
    expect(context.length).toBeGreaterThan(0);
    expect(context.every((e) => e.cleared > 0 && e.dropped === 0)).toBe(true);
    for (const request of model.requests) {
      expect(estimateTokens(request, model)).toBeLessThanOrEqual(3_000);
      expectPaired(request);
    }
  });

  it('fall through to the next strategy when the first cannot make it fit', async () => {
    const summarizer = scriptedModel(['Short summary.']);
    const model = scriptedModel(['ok']);
    const bot = agent({
      model,
      context: {
        maxTokens: 900,
        strategy: [clearToolResults(), summarize({ model: summarizer, keepLast: 2 }), trimOldest()],
      },
    });
    const result = await bot.generate([...exchanges(20), { role: 'user', content: 'Now?' }]);
    expect(summarizer.requests).toHaveLength(1);
    expect(result.status === 'done' && result.state.context?.summary?.text).toBe('Short summary.');
    expect(estimateTokens(model.requests[0], model)).toBeLessThanOrEqual(900);
  });
});

describe('providerManaged', () => {
  it("sets the provider's request options on every request; the agent's own providerOptions win", async () => {
    const model = scriptedModel(['ok']);
    const edits = [{ type: 'clear_tool_uses_20250919', keep: { type: 'tool_uses', value: 3 } }];
    const bot = agent({
      model,
      providerOptions: { openai: { truncation: 'disabled', seed: 1 } },
      context: {
        maxTokens: 10_000,
        strategy: providerManaged({ anthropic: { edits }, openai: { truncation: 'auto' } }),
      },
    });
    await bot.generate('Hi');
    expect(model.requests[0].providerOptions).toEqual({
      openai: { truncation: 'disabled', seed: 1 },
      anthropic: { context_management: { edits } },
    });
  });

  it('lets an oversized request through for the provider to trim, instead of CONTEXT_OVERFLOW', async () => {
    const model = scriptedModel(['ok']);
    const bot = agent({
      model,
      instructions: 'rule '.repeat(2_000),
      context: {
        maxTokens: 100,
        strategy: [trimOldest(), providerManaged({ openai: { truncation: 'auto' } })],
      },
    });
    await bot.generate('Hi');
    expect(model.requests[0].providerOptions).toEqual({ openai: { truncation: 'auto' } });
  });
});

describe('the budget', () => {
  it('fails with CONTEXT_OVERFLOW before sending when the minimum does not fit', async () => {
    const model = scriptedModel(['ok']);
    const bot = agent({
      model,
      instructions: 'rule '.repeat(2_000),
      context: { maxTokens: 500, strategy: trimOldest() },
    });
    const error = (await bot.generate('Hi').catch((e: unknown) => e)) as AgentError;
    expect(error.code).toBe('CONTEXT_OVERFLOW');
    expect(error.message).toMatch(
      /about \d+ input tokens, more than context.maxTokens allows \(500\)/,
    );
    expect(model.requests).toHaveLength(0);
  });

  it('defaults to the model window less its output room, and shrinks when the provider counts more than estimated', async () => {
    const counted = (request: GenerateRequest) => Math.round(1.5 * estimateTokens(request, 'x'));
    const model = Object.assign(
      scriptedModel([
        ...Array.from({ length: 6 }, (_, n) => (request: GenerateRequest) => ({
          toolCalls: [{ id: `c${n}`, name: 'big', args: { n } }],
          // The provider counts half as much again as the estimate.
          usage: { inputTokens: counted(request) },
        })),
        'Done.',
      ]),
      { limits: { contextWindow: 3_000, maxOutput: 1_000 } },
    );
    const bot = agent({ model, tools: [big], stopWhen: [], context: { strategy: trimOldest() } });
    const run = bot.stream('Go.');
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    expect((await run.result).status).toBe('done');
    const budgets = contextEvents(events).map((e) => e.maxTokens);
    expect(budgets.length).toBeGreaterThan(0);
    for (const budget of budgets) expect(budget).toBeLessThanOrEqual(Math.ceil(2_000 / 1.5) + 1);
    for (const request of model.requests) expect(counted(request)).toBeLessThanOrEqual(2_000 + 2);
  });

  it("takes the output room from the agent's maxTokens when it is set", async () => {
    const limits = { contextWindow: 3_000, maxOutput: 1_000 };
    const model = Object.assign(scriptedModel(['ok']), { limits });
    const bot = agent({ model, maxTokens: 2_500, context: { strategy: trimOldest() } });
    const error = (await bot
      .generate('word '.repeat(600)) // about 750 tokens: more than 3,000 - 2,500
      .catch((e: unknown) => e)) as AgentError;
    expect(error.code).toBe('CONTEXT_OVERFLOW');
    expect(error.message).toContain('(500)');
    const roomy = agent({ model, context: { strategy: trimOldest() } });
    expect((await roomy.generate('word '.repeat(600))).status).toBe('done');
  });
});
