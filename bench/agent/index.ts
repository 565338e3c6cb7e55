/**
 * Agent-loop overhead: one run of three steps — two model turns that each call a
 * trivial `add` tool, then a final text answer — with a model that answers instantly.
 * What is measured is the framework: building requests, validating arguments, running
 * tools, appending results, and keeping the run's state. Each peer gets the same turns
 * from an in-process model and validates the tool's arguments with a schema:
 *
 * - fino: `agent().generate()` with a `Model` answering from memory, `v` schema.
 * - Vercel AI SDK 6: `generateText()` with `MockLanguageModelV3` from `ai/test`, a Zod
 *   schema, `stopWhen: stepCountIs(8)`.
 * - OpenAI Agents SDK: `run()` with a fake `Model`, a Zod schema, tracing disabled.
 *
 * A second job has three parallel tool calls per turn. Every peer is warmed up before
 * timing (the first job used to run before the JIT had compiled anything), runs are timed
 * in batches, and medians with their p25–p75 spread are reported (a mean over single runs
 * was dominated by garbage-collection pauses).
 *
 *     npm run bench -- agent
 */

import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import {
  type ModelRequest,
  Agent as OpenAIAgent,
  type Model as OpenAIModel,
  Usage as OpenAIUsage,
  run as openaiRun,
  tool as openaiTool,
  setTracingDisabled,
} from '@openai/agents';
import { generateText, stepCountIs, tool as vercelTool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { agent } from '../../src/ai/agent/index.ts';
import type { GenerateRequest, GenerateResult, Model } from '../../src/ai/model/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';
import { compareBatched } from '../harness.ts';

setTracingDisabled(true);

const TOOL_STEPS = 2;
const description = 'Add two numbers.';
const add = ({ a, b }: { a: number; b: number }) => String(a + b);
const callIds = (step: number, calls: number) =>
  Array.from({ length: calls }, (_, i) => `call_${step}_${i}`);

function finoModel(calls: number): Model {
  const answer = async (request: GenerateRequest): Promise<GenerateResult> => {
    const step = request.messages.filter((m) => m.role === 'assistant').length;
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    if (step >= TOOL_STEPS) {
      const text = 'The sums are done.';
      const message = { role: 'assistant' as const, content: [{ type: 'text' as const, text }] };
      return { message, text, toolCalls: [], stopReason: 'end', usage };
    }
    const toolCalls = callIds(step, calls).map((id) => ({ id, name: 'add', args: { a: 1, b: 2 } }));
    const content = toolCalls.map((c) => ({ type: 'tool_use' as const, ...c }));
    return {
      message: { role: 'assistant', content },
      text: '',
      toolCalls,
      stopReason: 'tool_calls',
      usage,
    };
  };
  return {
    id: 'bench',
    generate: answer,
    stream: () => {
      throw new Error('not used');
    },
  };
}

function vercelModel(calls: number): MockLanguageModelV3 {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  return new MockLanguageModelV3({
    doGenerate: async (options): Promise<LanguageModelV3GenerateResult> => {
      const step = options.prompt.filter((m) => m.role === 'assistant').length;
      if (step >= TOOL_STEPS) {
        return {
          content: [{ type: 'text', text: 'The sums are done.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      }
      return {
        content: callIds(step, calls).map((toolCallId) => ({
          type: 'tool-call',
          toolCallId,
          toolName: 'add',
          input: '{"a":1,"b":2}',
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}

function openaiModel(calls: number): OpenAIModel {
  return {
    async getResponse(request: ModelRequest) {
      const input = typeof request.input === 'string' ? [] : request.input;
      const step = input.filter((item) => item.type === 'function_call_result').length / calls;
      const usage = new OpenAIUsage({
        requests: 1,
        inputTokens: 1,
        outputTokens: 1,
        totalTokens: 2,
      });
      if (step >= TOOL_STEPS) {
        return {
          usage,
          output: [
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'The sums are done.' }],
            },
          ],
        };
      }
      return {
        usage,
        output: callIds(step, calls).map((callId) => ({
          type: 'function_call' as const,
          callId,
          name: 'add',
          arguments: '{"a":1,"b":2}',
          status: 'completed' as const,
        })),
      };
    },
    getStreamedResponse() {
      throw new Error('not used');
    },
  };
}

const finoAdd = tool({
  name: 'add',
  description,
  parameters: v.object({ a: v.number(), b: v.number() }),
  execute: add,
});
const zodArgs = z.object({ a: z.number(), b: z.number() });
const vercelAdd = vercelTool({
  description,
  inputSchema: zodArgs,
  execute: async (args) => add(args),
});
const openaiAdd = openaiTool({ name: 'add', description, parameters: zodArgs, execute: add });

async function job(calls: number) {
  const fino = agent({ model: finoModel(calls), tools: [finoAdd], instructions: 'Add.' });
  const vModel = vercelModel(calls);
  const oAgent = new OpenAIAgent({
    name: 'adder',
    instructions: 'Add.',
    model: openaiModel(calls),
    tools: [openaiAdd],
  });
  const expected = 'The sums are done.';
  const peers = {
    fino: async () => {
      const result = await fino.generate('Add 1 and 2.');
      if (result.status !== 'done' || result.steps.length !== 3) throw new Error('fino: bad run');
    },
    'ai (Vercel AI SDK)': async () => {
      vModel.doGenerateCalls.length = 0; // the mock records every call; keep memory flat
      const result = await generateText({
        model: vModel,
        system: 'Add.',
        prompt: 'Add 1 and 2.',
        tools: { add: vercelAdd },
        stopWhen: stepCountIs(8),
      });
      if (result.text !== expected || result.steps.length !== 3) throw new Error('ai: bad run');
    },
    '@openai/agents': async () => {
      const result = await openaiRun(oAgent, 'Add 1 and 2.', { maxTurns: 8 });
      if (result.finalOutput !== expected) throw new Error('@openai/agents: bad run');
    },
  };
  // Check every peer does the same work before timing it (compareBatched then warms each up).
  for (const peer of Object.values(peers)) await peer();
  await compareBatched(
    `agent run: 3 steps, ${TOOL_STEPS * calls} tool calls (${calls} per turn), instant model`,
    peers,
    { baseline: 'fino' },
  );
}

await job(1);
await job(3);
