/**
 * Handoff overhead: a chain of three agents (a hands off to b, b to c, c answers) against
 * a plain run of the same three steps (one agent calling a trivial `noop` tool twice, then
 * answering), on the same fake model — a Chat Completions server on 127.0.0.1
 * (`test/helpers/chat-server.ts`) answering each request from its system prompt — and the
 * OpenAI Agents SDK's own handoff chain (and plain run) on that same server through its
 * `OpenAIChatCompletionsModel`, in one run. Goal: fino's chain costs no more per step
 * than fino's plain run.
 *
 *     node --import tsx bench/agent/handoff.ts
 */
import {
  Agent as OpenAIAgent,
  run as openaiRun,
  tool as openaiTool,
  setTracingDisabled,
} from '@openai/agents';
import { OpenAIChatCompletionsModel } from '@openai/agents-openai';
import OpenAI from 'openai';
import { z } from 'zod';
import { type Agent, agent } from '../../src/ai/agent/index.ts';
import { openai } from '../../src/ai/model/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { type ChatRequest, chatServer, systemOf } from '../../test/helpers/chat-server.ts';
import { compareBatched } from '../harness.ts';

setTracingDisabled(true);

const DONE = 'All done.';
/** The fake model: the plain agent calls noop twice then answers; a → b → c hand off, c answers. */
function answer(body: ChatRequest) {
  const system = systemOf(body);
  if (system === 'plain') {
    const results = body.messages.filter((m) => m.role === 'tool').length;
    return results < 2 ? { toolCalls: [{ name: 'noop', args: {} }] } : { text: DONE };
  }
  if (system === 'a') return { toolCalls: [{ name: 'transfer_to_b', args: {} }] };
  if (system === 'b') return { toolCalls: [{ name: 'transfer_to_c', args: {} }] };
  return { text: DONE };
}

const server = await chatServer(answer);
const model = openai({ model: 'gpt-test', apiKey: 'sk-test', baseURL: server.url });
const sdkModel = new OpenAIChatCompletionsModel(
  new OpenAI({ apiKey: 'sk-test', baseURL: server.url }),
  'gpt-test',
);

const noop = tool({ name: 'noop', description: 'Does nothing.', execute: () => 'ok' });
const plain = agent({ name: 'plain', instructions: 'plain', model, tools: [noop] });
const c = agent({ name: 'c', instructions: 'c', model });
const b = agent({ name: 'b', instructions: 'b', model, handoffs: [c] });
const a: Agent = agent({ name: 'a', instructions: 'a', model, handoffs: [b] });

const sdkNoop = openaiTool({
  name: 'noop',
  description: 'Does nothing.',
  parameters: z.object({}),
  execute: async () => 'ok',
});
const sdkPlain = new OpenAIAgent({
  name: 'plain',
  instructions: 'plain',
  model: sdkModel,
  tools: [sdkNoop],
});
const sdkC = new OpenAIAgent({ name: 'c', instructions: 'c', model: sdkModel });
const sdkB = new OpenAIAgent({ name: 'b', instructions: 'b', model: sdkModel, handoffs: [sdkC] });
const sdkA = new OpenAIAgent({ name: 'a', instructions: 'a', model: sdkModel, handoffs: [sdkB] });

const check = (ok: boolean, peer: string) => {
  if (!ok) throw new Error(`${peer}: bad run`);
};
const peers = {
  'fino plain (3 steps)': async () => {
    const r = await plain.generate('go');
    check(r.status === 'done' && r.steps.length === 3 && r.text === DONE, 'fino plain');
  },
  'fino handoff chain a→b→c (3 steps)': async () => {
    const r = await a.generate('go');
    check(r.status === 'done' && r.steps.length === 3 && r.agent === 'c', 'fino chain');
  },
  '@openai/agents plain (3 steps)': async () => {
    const r = await openaiRun(sdkPlain, 'go', { maxTurns: 8 });
    check(r.finalOutput === DONE, '@openai/agents plain');
  },
  '@openai/agents handoff chain a→b→c (3 steps)': async () => {
    const r = await openaiRun(sdkA, 'go', { maxTurns: 8 });
    check(r.finalOutput === DONE && r.lastAgent?.name === 'c', '@openai/agents chain');
  },
};
for (const peer of Object.values(peers)) await peer();
server.requests.length = 0;
const keepFlat = setInterval(() => {
  server.requests.length = 0; // the server records every request; keep memory flat
}, 50);
await compareBatched('agent handoff: 3 steps on a local Chat Completions server', peers, {
  baseline: 'fino plain (3 steps)',
});
clearInterval(keepFlat);
await server.close();
