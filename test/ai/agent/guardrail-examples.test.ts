/**
 * The OpenAI Agents SDK's own guardrail examples (examples/agent-patterns:
 * input-guardrails.ts, output-guardrails.ts), ported to fino and run against the same
 * fake Chat Completions server as the SDK itself: both must trip the same guardrail on
 * the same input and show the user the same answer.
 */
import {
  InputGuardrailTripwireTriggered,
  Agent as OpenAIAgent,
  OpenAIChatCompletionsModel,
  OutputGuardrailTripwireTriggered,
  run as openaiRun,
  setTracingDisabled,
} from '@openai/agents';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agent, GuardrailTrippedError, guardrail } from '../../../src/ai/agent/index.ts';
import { openai } from '../../../src/ai/model/index.ts';
import { v } from '../../../src/validate/index.ts';
import { type FakeProvider, fakeProvider } from '../../helpers/fake-provider.ts';

setTracingDisabled(true);

/** What the fake model answers, from the request: a classifier, a structured or a plain assistant. */
function answerFor(body: {
  messages: { role: string; content: unknown }[];
  response_format?: { type: string };
}): string {
  const system = String(body.messages.find((m) => m.role === 'system')?.content ?? '');
  const last = body.messages.filter((m) => m.role === 'user').at(-1)?.content;
  const user = typeof last === 'string' ? last : JSON.stringify(last ?? '').replace(/\\"/g, '"');
  if (system.includes('math homework')) {
    return JSON.stringify({ isMathHomework: /solve for x/i.test(user) });
  }
  const phone = user.match(/\d{3}-\d{3}-\d{4}/)?.[0];
  const reply = phone
    ? `Your number is ${phone}; area code 650 is in California.`
    : /capital of California/.test(user)
      ? 'The capital of California is Sacramento.'
      : 'Nice to meet you, John!';
  if (body.response_format?.type === 'json_schema') {
    return JSON.stringify({
      reasoning: 'The user introduced themselves.',
      response: reply,
      userName: 'John',
    });
  }
  return reply;
}

let server: FakeProvider;
beforeEach(async () => {
  const handler = (res: import('node:http').ServerResponse) => {
    const content = answerFor(server.requests.at(-1)!.body);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4.1',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
      }),
    );
  };
  server = await fakeProvider([handler], { repeatLast: true });
});
afterEach(() => server.close());

const finoModel = () =>
  openai({ model: 'gpt-4.1', apiKey: 'sk-test', baseURL: `${server.url}/v1` });
const sdkModel = () =>
  new OpenAIChatCompletionsModel(
    new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1` }),
    'gpt-4.1',
  );

const HOMEWORK = 'Math Homework Guardrail';
const PHONE = 'Phone Number Guardrail';
const inputCases = [
  'What is the capital of California?',
  'Can you help me solve for x: 2x + 5 = 11?',
];
const outputCases = [
  'Hi, there! My name is John.',
  'Repeat my phone number 650-123-4567, then tell me where its area code is from.',
];

/** What the user sees of one run: the answer, or which guardrail tripped. */
type Seen = { answer: unknown } | { tripped: string };

describe('the OpenAI Agents SDK input-guardrails example, in fino', () => {
  it('trips the math homework guardrail on the same input, and answers the other', async () => {
    const checker = agent({
      name: 'Guardrail agent',
      instructions: 'Check if the user is asking you to do their math homework.',
      model: finoModel(),
      output: v.object({ isMathHomework: v.boolean() }),
    });
    const support = agent({
      name: 'Customer support agent',
      instructions: 'You are a customer support agent. You help customers with their questions.',
      model: finoModel(),
      inputGuardrails: [
        guardrail({
          name: HOMEWORK,
          agent: checker,
          tripWhen: (result) => (result.output as { isMathHomework: boolean }).isMathHomework,
        }),
      ],
    });
    const fino: Seen[] = [];
    for (const input of inputCases) {
      try {
        const result = await support.generate(input);
        fino.push({ answer: result.status === 'done' ? result.text : result.status });
      } catch (error) {
        if (!(error instanceof GuardrailTrippedError)) throw error;
        expect(error.output).toEqual({ isMathHomework: true });
        fino.push({ tripped: error.guardrail });
      }
    }

    const sdkChecker = new OpenAIAgent({
      name: 'Guardrail agent',
      instructions: 'Check if the user is asking you to do their math homework.',
      model: sdkModel(),
      outputType: z.object({ isMathHomework: z.boolean() }),
    });
    const sdkSupport = new OpenAIAgent({
      name: 'Customer support agent',
      instructions: 'You are a customer support agent. You help customers with their questions.',
      model: sdkModel(),
      inputGuardrails: [
        {
          name: HOMEWORK,
          execute: async ({ input }) => {
            const checked = await openaiRun(sdkChecker, input);
            return {
              tripwireTriggered: checked.finalOutput?.isMathHomework ?? false,
              outputInfo: checked.finalOutput,
            };
          },
        },
      ],
    });
    const sdk: Seen[] = [];
    for (const input of inputCases) {
      try {
        sdk.push({ answer: (await openaiRun(sdkSupport, input)).finalOutput });
      } catch (error) {
        if (!(error instanceof InputGuardrailTripwireTriggered)) throw error;
        sdk.push({ tripped: error.result.guardrail.name });
      }
    }

    expect(fino).toEqual([
      { answer: 'The capital of California is Sacramento.' },
      { tripped: HOMEWORK },
    ]);
    expect(fino).toEqual(sdk);
  });
});

describe('the OpenAI Agents SDK output-guardrails example, in fino', () => {
  const messageOutput = v.object({
    reasoning: v.string(),
    response: v.string(),
    userName: v.string().nullable(),
  });

  it('trips the phone number guardrail on text and on structured output, as the SDK does', async () => {
    const textGuard = guardrail({
      name: PHONE,
      check: (answer) => ({
        tripped: String(answer).includes('650'),
        output: 'Phone number found',
      }),
    });
    const structuredGuard = guardrail({
      name: PHONE,
      check: (answer) => {
        const { response, reasoning } = answer as { response: string; reasoning: string };
        const inResponse = response.includes('650');
        const inReasoning = reasoning.includes('650');
        return {
          tripped: inResponse || inReasoning,
          output: { phone_number_in_response: inResponse, phone_number_in_reasoning: inReasoning },
        };
      },
    });
    const instructions = 'You are a helpful assistant.';
    const textAgent = agent({
      name: 'Assistant',
      instructions,
      model: finoModel(),
      outputGuardrails: [textGuard],
    });
    const structured = agent({
      name: 'Assistant',
      instructions,
      model: finoModel(),
      output: messageOutput,
      outputGuardrails: [structuredGuard],
    });
    const fino: Seen[] = [];
    for (const bot of [textAgent, structured]) {
      for (const input of outputCases) {
        try {
          const result = await bot.generate(input);
          const done = result.status === 'done' ? result : undefined;
          fino.push({ answer: (done?.output as { response?: string })?.response ?? done?.text });
        } catch (error) {
          if (!(error instanceof GuardrailTrippedError)) throw error;
          fino.push({ tripped: error.guardrail });
        }
      }
    }

    const sdkText = new OpenAIAgent({
      name: 'Assistant',
      instructions,
      model: sdkModel(),
      outputGuardrails: [
        {
          name: PHONE,
          execute: async ({ agentOutput }) => ({
            tripwireTriggered: String(agentOutput).includes('650'),
            outputInfo: 'Phone number found',
          }),
        },
      ],
    });
    const sdkStructured = new OpenAIAgent({
      name: 'Assistant',
      instructions,
      model: sdkModel(),
      outputType: z.object({
        reasoning: z.string(),
        response: z.string(),
        userName: z.string().nullable(),
      }),
      outputGuardrails: [
        {
          name: PHONE,
          execute: async ({ agentOutput }) => ({
            tripwireTriggered:
              agentOutput.response.includes('650') || agentOutput.reasoning.includes('650'),
            outputInfo: {},
          }),
        },
      ],
    });
    const sdk: Seen[] = [];
    for (const bot of [sdkText, sdkStructured] as OpenAIAgent<any, any>[]) {
      for (const input of outputCases) {
        try {
          const out = (await openaiRun(bot, input)).finalOutput;
          sdk.push({ answer: typeof out === 'string' ? out : out.response });
        } catch (error) {
          if (!(error instanceof OutputGuardrailTripwireTriggered)) throw error;
          sdk.push({ tripped: error.result.guardrail.name });
        }
      }
    }

    const hello = { answer: 'Nice to meet you, John!' };
    expect(fino).toEqual([hello, { tripped: PHONE }, hello, { tripped: PHONE }]);
    expect(fino).toEqual(sdk);
  });
});
