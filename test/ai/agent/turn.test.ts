import { describe, expect, it } from 'vitest';
import { agent, type RunState } from '../../../src/ai/agent/index.ts';
import { toAnthropicMessages } from '../../../src/ai/model/anthropic/messages.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { toOpenAIMessages } from '../../../src/ai/model/openai/chat-messages.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { collect, deferred } from './helpers.ts';

/** Two tools that hang until cancelled, one that answers at once, one that needs approval. */
function fixture() {
  const started = [deferred(), deferred()];
  let n = 0;
  const hang = tool({
    name: 'hang',
    parameters: v.object({}),
    execute: () => {
      started[n++].resolve();
      return new Promise<string>(() => {});
    },
  });
  const quick = tool({ name: 'quick', parameters: v.object({}), execute: () => 'quick done' });
  const guarded = tool({
    name: 'guarded',
    parameters: v.object({}),
    requiresApproval: true,
    execute: () => 'never',
  });
  const model = scriptedModel([
    {
      toolCalls: [
        { id: 'q', name: 'quick', args: {} },
        { id: 'h1', name: 'hang', args: {} },
        { id: 'g', name: 'guarded', args: {} },
        { id: 'h2', name: 'hang', args: {} },
      ],
    },
  ]);
  const bot = agent({ model, tools: [hang, quick, guarded] });
  return { bot, inFlight: Promise.all(started.map((d) => d.promise)) };
}

const ABORTED = (name: string) =>
  `Tool call "${name}" was aborted: the run was stopped before it finished.`;

/** Every tool call id of the OpenAI wire messages, and every id answered by a tool message. */
function openAIPairs(state: RunState) {
  const wire = toOpenAIMessages(undefined, state.messages, []);
  const calls = wire.flatMap((m) =>
    ((m.tool_calls as { id: string }[] | undefined) ?? []).map((c) => c.id),
  );
  const answers = wire.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
  return { calls, answers };
}

function anthropicPairs(state: RunState) {
  const { messages } = toAnthropicMessages(undefined, state.messages, []);
  const blocks = messages.flatMap((m) => m.content);
  return {
    uses: blocks.filter((b) => b.type === 'tool_use').map((b) => b.id),
    results: blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id),
  };
}

describe('abort pairs every tool call with one result', () => {
  it('rejects with AbortError carrying a state every provider accepts', async () => {
    const { bot, inFlight } = fixture();
    const controller = new AbortController();
    const checkpoints: RunState[] = [];
    const quickSaved = deferred();
    const run = bot.generate('go', {
      signal: controller.signal,
      onCheckpoint: (s) => {
        checkpoints.push(s);
        if (s.turn?.results.some((r) => r.toolCallId === 'q')) quickSaved.resolve();
      },
    });
    await Promise.all([inFlight, quickSaved.promise]);
    controller.abort();
    const error = (await run.catch((e: unknown) => e)) as Error & { state: RunState };
    expect(error.name).toBe('AbortError');
    const { state } = error;
    expect(state.turn).toBeUndefined();
    expect(state.steps[0].toolResults).toEqual([
      { type: 'tool_result', toolCallId: 'q', content: 'quick done' },
      { type: 'tool_result', toolCallId: 'h1', content: ABORTED('hang'), isError: true },
      { type: 'tool_result', toolCallId: 'g', content: ABORTED('guarded'), isError: true },
      { type: 'tool_result', toolCallId: 'h2', content: ABORTED('hang'), isError: true },
    ]);
    expect(state.messages.at(-1)).toEqual({ role: 'user', content: state.steps[0].toolResults });
    // the last checkpoint is the paired state
    expect(checkpoints.at(-1)).toEqual(state);

    const { calls, answers } = openAIPairs(state);
    expect(calls).toEqual(['q', 'h1', 'g', 'h2']);
    expect(answers).toEqual(calls);
    const { uses, results } = anthropicPairs(state);
    expect(uses).toEqual(['q', 'h1', 'g', 'h2']);
    expect(results).toEqual(uses);

    // and the conversation goes on from it
    const next = agent({ model: scriptedModel(['Stopped; the quick one finished.']) });
    const resumed = await next.resume(JSON.parse(JSON.stringify(state)));
    expect(resumed.status === 'done' && resumed.text).toBe('Stopped; the quick one finished.');
  });

  it('does the same for a streamed run', async () => {
    const { bot, inFlight } = fixture();
    const controller = new AbortController();
    const run = bot.stream('go', { signal: controller.signal });
    const events = collect(run).catch((e: unknown) => e);
    await inFlight;
    controller.abort();
    const error = (await events) as Error & { state: RunState };
    expect(error.name).toBe('AbortError');
    expect(error.state.steps[0].toolResults.map((r) => r.toolCallId)).toEqual([
      'q',
      'h1',
      'g',
      'h2',
    ]);
    await expect(run.result).rejects.toBe(error);
  });

  it('attaches the state unchanged when the abort comes during a model request', async () => {
    const controller = new AbortController();
    const asked = deferred();
    const model = scriptedModel([
      () => {
        asked.resolve();
        return new Promise<never>(() => {});
      },
    ]);
    const run = agent({ model }).generate('go', { signal: controller.signal });
    await asked.promise;
    controller.abort();
    const error = (await run.catch((e: unknown) => e)) as Error & { state: RunState };
    expect(error.name).toBe('AbortError');
    expect(error.state.messages).toEqual([{ role: 'user', content: 'go' }]);
  });
});
