/**
 * The context step's cost per model request (issue 22, items 3 and 6), against the
 * model call it precedes, for conversations of 10, 100, 1,000 and 10,000 messages: a
 * user question followed by a tool loop (an assistant turn with one call, then its
 * ~250-character result), budget 100,000 tokens, strategies
 * `[clearToolResults({ keep: 3 }), trimOldest()]`.
 *
 * - `context step (warm)`: the step as a run's later requests meet it — the messages
 *   are the run's own objects, so each one's token count is cached from the request
 *   before.
 * - `fake model call`: an in-process model answering at once (the floor of a model
 *   call; a provider's is hundreds of milliseconds).
 * - Cold (second table): the messages parsed from JSON for every request — as a run
 *   resumed or a thread loaded from a store meets them the first time — against the
 *   parse alone; the difference is the step with every message counted afresh.
 *
 * Batched and interleaved (`compareBatched`, bench/METHOD.md).
 *
 *     node --import tsx bench/agent/context.ts
 */

import { applyContext } from '../../src/ai/agent/context/step.ts';
import { clearToolResults, trimOldest } from '../../src/ai/agent/index.ts';
import { readOptions } from '../../src/ai/agent/options.ts';
import type { Run } from '../../src/ai/agent/run.ts';
import type { RunState } from '../../src/ai/agent/types.ts';
import type {
  GenerateRequest,
  GenerateResult,
  Model,
  ModelMessage,
} from '../../src/ai/model/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';
import { compareBatched } from '../harness.ts';

const SIZES = [10, 100, 1_000, 10_000];

const answer: GenerateResult = {
  message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
  text: 'Done.',
  toolCalls: [],
  stopReason: 'end',
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
};
const model: Model = {
  id: 'openai:gpt-4.1',
  generate: async () => answer,
  async *stream() {
    yield { type: 'stop', result: answer };
  },
};
const lookup = tool({
  name: 'lookup',
  description: 'Look a record up.',
  parameters: v.object({ n: v.number() }),
  execute: ({ n }: { n: number }) => String(n),
});
const config = readOptions({
  model,
  instructions: 'You are a records clerk.',
  tools: [lookup],
  telemetry: false,
  context: { maxTokens: 100_000, strategy: [clearToolResults({ keep: 3 }), trimOldest()] },
});
const run = {
  config,
  signal: new AbortController().signal,
  streaming: false,
  emit() {},
  checkpoint: async () => {},
} as unknown as Run;

function conversation(size: number): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: 'user', content: 'Find the record that matches.' }];
  for (let n = 0; messages.length < size; n++) {
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: `c${n}`, name: 'lookup', args: { n } }],
    });
    messages.push({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolCallId: `c${n}`,
          content: `record ${n}: name=Ada Lovelace; city=London; status=active; notes=${'x'.repeat(180)}`,
        },
      ],
    });
  }
  return messages.slice(0, size % 2 === 0 ? size - 1 : size);
}

const request = (state: RunState): GenerateRequest => ({
  messages: state.messages.slice(),
  system: config.instructions,
  tools: config.definitions,
});

const stateOf = (messages: ModelMessage[]): RunState => ({
  version: 1,
  runId: 'bench',
  messages,
  steps: [],
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
});

for (const size of SIZES) {
  const state = stateOf(conversation(size));
  const sent = await (async () => {
    const r = request(state);
    await applyContext(state, run, r, 0);
    return r.messages.length;
  })();
  await compareBatched(
    `${size} messages (${sent} sent), warm`,
    {
      'context step (warm)': () => applyContext(state, run, request(state), 0),
      'fake model call': () => model.generate(request(state)),
    },
    { baseline: 'fake model call' },
  );
}

for (const size of SIZES) {
  const json = JSON.stringify(conversation(size));
  await compareBatched(
    `${size} messages, cold`,
    {
      'JSON.parse only': () => stateOf(JSON.parse(json)),
      'JSON.parse + context step (cold)': () => {
        const state = stateOf(JSON.parse(json));
        return applyContext(state, run, request(state), 0);
      },
    },
    { baseline: 'JSON.parse only' },
  );
}
