/**
 * A provider that reports token counts that are not counts — negative, `1e308`, not
 * numbers — cannot switch a budget off: every adapter, streamed or not, replaces them
 * with the estimate and says so in a warning (issue 32 item 3, decision 176).
 */
import { describe, expect, it } from 'vitest';
import { agent, BudgetExceededError } from '../../src/ai/agent/index.ts';
import type { GenerateResult, StreamEvent, Usage } from '../../src/ai/model/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';
import { anthropicFixture } from '../ai/agent/providers/anthropic.ts';
import type { ProviderFixture } from '../ai/agent/providers/fixture.ts';
import { geminiFixture } from '../ai/agent/providers/gemini.ts';
import { openaiFixture } from '../ai/agent/providers/openai.ts';
import { openaiResponsesFixture } from '../ai/agent/providers/openai-responses.ts';
import { collect, type Reply, useFakeProvider } from '../helpers/fake-provider.ts';

const fake = useFakeProvider();
const ask = { messages: [{ role: 'user' as const, content: 'Weather in Oslo?' }] };

/** One provider's usage object, with these input, output and part (cached, reasoning) counts. */
type UsageWire = (input: unknown, output: unknown, part: unknown) => Record<string, unknown>;

/** The total an honest server would send; the bad count itself otherwise. */
const totalOf = (input: unknown, output: unknown) =>
  typeof input === 'number' && typeof output === 'number' ? input + output : input;

const USAGE: [ProviderFixture, UsageWire][] = [
  [
    openaiFixture,
    (input, output, part) => ({
      prompt_tokens: input,
      completion_tokens: output,
      total_tokens: totalOf(input, output),
      prompt_tokens_details: { cached_tokens: part },
      completion_tokens_details: { reasoning_tokens: part },
    }),
  ],
  [
    openaiResponsesFixture,
    (input, output, part) => ({
      input_tokens: input,
      output_tokens: output,
      total_tokens: totalOf(input, output),
      input_tokens_details: { cached_tokens: part, cache_write_tokens: part },
      output_tokens_details: { reasoning_tokens: part },
    }),
  ],
  [
    anthropicFixture,
    (input, output, part) => ({
      input_tokens: input,
      output_tokens: output,
      cache_read_input_tokens: part,
      cache_creation_input_tokens: part,
      output_tokens_details: { thinking_tokens: part },
    }),
  ],
  [
    geminiFixture,
    (input, output, part) => ({
      promptTokenCount: input,
      candidatesTokenCount: output,
      totalTokenCount: totalOf(input, output),
      cachedContentTokenCount: part,
      thoughtsTokenCount: part,
    }),
  ],
];

/** `reply` with every usage object in it (whole body or stream events) replaced by `usage`. */
function withUsage(reply: Reply, usage: Record<string, unknown>): Reply {
  const replace = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(replace);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === 'usage' || key === 'usageMetadata' ? usage : replace(inner),
      ]),
    );
  };
  const event = (text: string) =>
    text.replace(
      /^data: (\{.*)$/m,
      (_, json: string) => `data: ${JSON.stringify(replace(JSON.parse(json)))}`,
    );
  return { ...reply, json: replace(reply.json), sse: reply.sse?.map(event) };
}

async function streamed(events: AsyncIterable<StreamEvent>): Promise<[GenerateResult, Usage]> {
  const all = await collect(events);
  const stop = all.find((e) => e.type === 'stop');
  const usage = all.find((e) => e.type === 'usage');
  if (stop?.type !== 'stop' || usage?.type !== 'usage') {
    throw new Error(`expected usage and stop, received ${JSON.stringify(all)}`);
  }
  return [stop.result, usage.usage];
}

/** Every count a non-negative safe integer, the total at least its parts. */
function expectCounts(usage: Usage): void {
  for (const [key, value] of Object.entries(usage)) {
    expect(Number.isSafeInteger(value) && (value as number) >= 0, `${key}: ${value}`).toBe(true);
  }
  expect(usage.totalTokens).toBeGreaterThanOrEqual(usage.inputTokens + usage.outputTokens);
}

const WARNING =
  /^usage: the provider reported token counts that are not non-negative integers \(or a total below its parts\): inputTokens is estimated \(\d+\), outputTokens is estimated \(\d+\)/;

describe.each(USAGE.map(([f, u]) => [f.name, f, u] as const))(
  '%s: token counts that are not counts',
  (_name, fixture, usageWire) => {
    const model = () => fixture.model(fake.server.url);

    it.each([
      ['negative', -1_000_000],
      ['1e308', 1e308],
      ['non-number', '12'],
    ])('generate(): a %s count is replaced by the estimate, with a warning', async (_, bad) => {
      await fake.serve([withUsage(fixture.text('Sunny.', false), usageWire(bad, bad, bad))]);
      const result = await model().generate(ask);
      expectCounts(result.usage);
      expect(result.usage.inputTokens).toBeGreaterThan(0);
      expect(result.usage.outputTokens).toBeGreaterThan(0);
      expect(result.usage.cachedInputTokens).toBeUndefined();
      expect(result.usage.reasoningTokens).toBeUndefined();
      expect(result.warnings?.at(-1)?.message).toMatch(WARNING);
    });

    it('stream(): the same, the usage event included', async () => {
      const bad = usageWire(-1_000_000, 1e308, 2);
      await fake.serve([withUsage(fixture.text('Sunny.', true), bad)]);
      const [result, usage] = await streamed(model().stream(ask));
      expect(usage).toEqual(result.usage);
      expectCounts(usage);
      expect(usage.inputTokens).toBeGreaterThan(0);
      expect(result.warnings?.at(-1)?.message).toMatch(WARNING);
    });

    it('a negative part alone (cached, reasoning) is left out, the rest kept', async () => {
      await fake.serve([withUsage(fixture.text('Sunny.', false), usageWire(40, 9, -5))]);
      const result = await model().generate(ask);
      // Anthropic's input tokens are the sum of its parts: a bad part makes them estimated.
      if (fixture !== anthropicFixture) expect(result.usage.inputTokens).toBe(40);
      expect(result.usage).not.toHaveProperty('cachedInputTokens');
      expect(result.usage).not.toHaveProperty('reasoningTokens');
      expectCounts(result.usage);
      expect(result.warnings?.at(-1)?.message).toMatch(/cachedInputTokens is left out/);
    });

    it('honest counts pass untouched, with no warning', async () => {
      await fake.serve([withUsage(fixture.text('Sunny.', false), usageWire(40, 9, 0))]);
      const result = await model().generate(ask);
      expect(result.usage).toMatchObject({ inputTokens: 40 });
      expect(result.warnings).toBeUndefined();
    });

    it('an agent run with budget.maxTokens stops at its first turn', async () => {
      // Every turn asks for a tool, so only the budget can stop the run.
      const turn = fixture.toolCalls([{ id: 'c1', name: 'look', args: {} }], false);
      await fake.serve(
        Array.from({ length: 12 }, () => withUsage(turn, usageWire(-1_000_000, 5, 0))),
      );
      const look = tool({
        name: 'look',
        parameters: v.object({}),
        execute: () => 'x'.repeat(2000),
      });
      const bot = agent({ model: model(), tools: [look], budget: { maxTokens: 30 } });
      const error = await bot.generate('Weather in Oslo?').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BudgetExceededError);
      expect(error).toMatchObject({ code: 'BUDGET_EXCEEDED', limit: 'maxTokens' });
      expect((error as BudgetExceededError).spent).toBeGreaterThanOrEqual(30);
      expect(fake.server.count).toBe(1);
    });
  },
);
