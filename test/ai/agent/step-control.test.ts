/**
 * `agent({ fallbackModels })` over two fake providers: gpt-4.1 (OpenAI Responses) and
 * Claude (Anthropic Messages). A run suspends, travels as JSON, resumes in a new agent,
 * falls over on a 503 and comes back to gpt-4.1: each step records the model that
 * answered, each is priced at its own model's rates, and each provider gets back only
 * the reasoning it made.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { agent, type RunState } from '../../../src/ai/agent/index.ts';
import {
  anthropic,
  type Model,
  openai,
  scriptedModel,
  usageCost,
} from '../../../src/ai/model/index.ts';
import { type FakeProvider, fakeProvider, type Reply } from '../../helpers/fake-provider.ts';
import { functionCall, message, reasoning, reply } from '../model/openai/responses-wire.ts';
import { collect, echoTool } from './helpers.ts';
import { anthropicFixture } from './providers/anthropic.ts';

const servers: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function serve(replies: Reply[]): Promise<FakeProvider> {
  const server = await fakeProvider(replies);
  servers.push(server);
  return server;
}

const unavailable: Reply = {
  status: 503,
  json: { error: { message: 'The server is overloaded', type: 'server_error' } },
};

/** Claude's turn: a thinking block with its signature, then a tool call. */
const claudeTurn: Reply = {
  json: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [
      { type: 'thinking', thinking: 'Echo it again.', signature: 'sig-anthropic' },
      { type: 'tool_use', id: 'toolu_1', name: 'echo', input: { text: 'again' } },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 1000, output_tokens: 100 },
  },
};

function supportBot(openaiUrl: string, anthropicUrl: string) {
  return agent({
    name: 'support',
    model: openai({
      model: 'gpt-4.1',
      apiKey: 'sk-test',
      baseURL: openaiUrl,
      api: 'responses',
      maxRetries: 0,
    }),
    fallbackModels: [
      anthropic({ model: 'claude-sonnet-4-5', apiKey: 'sk-ant-test', baseURL: anthropicUrl }),
    ],
    tools: [echoTool({ name: 'refund', requiresApproval: true }), echoTool()],
  });
}

describe('agent({ fallbackModels })', () => {
  it('falls over on a 503 after a resume from JSON, records each step’s model, prices each at its rates, and sends reasoning back only to its provider', async () => {
    const gpt = await serve([
      reply(
        [
          reasoning('Refund first.', 'enc-openai'),
          functionCall('call_1', 'refund', { text: 'r1' }),
        ],
        false,
      ),
      unavailable,
      reply([message('All done.')], false),
    ]);
    const claude = await serve([claudeTurn]);
    const first = await supportBot(gpt.url, claude.url).generate('Refund order 1');
    expect(first.status).toBe('suspended');
    const saved = JSON.stringify(first.state);

    const state = JSON.parse(saved) as RunState;
    const result = await supportBot(gpt.url, claude.url).resume(state, {
      call_1: { approve: true },
    });
    expect(result.status).toBe('done');
    if (result.status !== 'done') return;
    expect(result.text).toBe('All done.');
    expect(result.steps.map((s) => s.model)).toEqual([
      'openai:gpt-4.1',
      'anthropic:claude-sonnet-4-5',
      'openai:gpt-4.1',
    ]);
    // gpt-4.1: the first request, the 503, the last request; Claude only the failed step.
    expect(gpt.count).toBe(3);
    expect(claude.count).toBe(1);
    const toClaude = JSON.stringify(claude.requests[0].body);
    expect(toClaude).not.toContain('enc-openai');
    expect(toClaude).toContain('echo: r1');
    const backToGpt = JSON.stringify(gpt.requests[2].body);
    expect(backToGpt).toContain('enc-openai');
    expect(backToGpt).not.toContain('sig-anthropic');
    expect(backToGpt).toContain('echo: again');

    const claudeStep = result.steps[1].usage;
    expect(claudeStep.cost).toBe(usageCost('anthropic:claude-sonnet-4-5', claudeStep));
    expect(claudeStep.cost).toBe(0.0045); // 1000 × $3/M + 100 × $15/M
    const gptStep = result.steps[0].usage;
    expect(gptStep.cost).toBe(usageCost('openai:gpt-4.1', gptStep));
  });

  it('falls over in a streamed run before any text, streaming the second provider’s text', async () => {
    const gpt = await serve([unavailable]);
    const claude = await serve([anthropicFixture.text('Streamed by Claude.', true)]);
    const running = supportBot(gpt.url, claude.url).stream('Hi');
    const events = await collect(running);
    const result = await running.result;
    expect(result.status === 'done' && result.steps[0].model).toBe('anthropic:claude-sonnet-4-5');
    const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(text).toBe('Streamed by Claude.');
  });

  it('with a cost limit, refuses a fallback model without a price, naming it', () => {
    const priced = scriptedModel([], { id: 'openai:gpt-4.1' });
    const unpriced = scriptedModel([], { id: 'local:llama' });
    expect(() =>
      agent({ model: priced, fallbackModels: [unpriced], budget: { maxCost: 1 } }),
    ).toThrow(
      'agent(options).budget.maxCost: the model "local:llama" has no price, so its cost is unknown',
    );
    expect(
      agent({
        model: priced,
        fallbackModels: [unpriced],
        budget: { maxCost: 1 },
        prices: { 'local:llama': { input: 0, output: 0 } },
      }).name,
    ).toBe('agent');
  });

  it('refuses an empty list and a non-model, naming it', () => {
    const model = scriptedModel([]);
    expect(() => agent({ model, fallbackModels: [] })).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining(
          'agent(options).fallbackModels: expected a non-empty array of Models',
        ),
      }),
    );
    expect(() => agent({ model, fallbackModels: [model, 'gpt-4o' as unknown as Model] })).toThrow(
      /agent\(options\)\.fallbackModels\[1\]: expected a Model with generate\(\) and stream\(\), received string/,
    );
  });
});
