/**
 * The everything server's tools for the 2026-07-28 input-required scenarios of the
 * conformance suite (SEP-2322, `input-required-result-*`): plain fino tools whose
 * `ctx.elicit()`/`ctx.sample()` the server turns into input-required results, with the
 * input-request keys the scenarios name.
 */
import { prompt } from '../../../../src/ai/mcp/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';

const form = (property: string, type: 'string' | 'boolean') => ({
  type: 'object' as const,
  properties: { [property]: { type } },
  required: [property],
});

const askName = tool({
  name: 'test_input_required_result_elicitation',
  description: 'Asks the user for their name, then greets them.',
  parameters: v.object({}),
  sideEffects: false,
  execute: async (_args, ctx) => {
    const answer = await ctx.elicit({
      key: 'user_name',
      message: 'What is your name?',
      schema: form('name', 'string'),
    });
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : `(${answer.action})`;
  },
});

const askCapital = tool({
  name: 'test_input_required_result_sampling',
  description: "Asks the client's model for the capital of France.",
  parameters: v.object({}),
  sideEffects: false,
  execute: async (_args, ctx) =>
    (
      await ctx.sample({
        key: 'capital_question',
        messages: [{ role: 'user', content: 'What is the capital of France?' }],
        maxTokens: 100,
      })
    ).text,
});

/** Asks for a confirmation; its state is sealed and checked by the server. */
const confirming = (name: string) =>
  tool({
    name,
    description: 'Asks the user to confirm.',
    parameters: v.object({}),
    sideEffects: false,
    execute: async (_args, ctx) => {
      const answer = await ctx.elicit({
        key: 'confirm',
        message: 'Please confirm',
        schema: form('ok', 'boolean'),
      });
      return `state-ok: ${answer.action}`;
    },
  });

const twoSteps = tool({
  name: 'test_input_required_result_multi_round',
  description: 'Asks a name, then a favorite color.',
  parameters: v.object({}),
  sideEffects: false,
  execute: async (_args, ctx) => {
    const name = await ctx.elicit({
      key: 'step1',
      message: 'Step 1: What is your name?',
      schema: form('name', 'string'),
    });
    const color = await ctx.elicit({
      key: 'step2',
      message: 'Step 2: What is your favorite color?',
      schema: form('color', 'string'),
    });
    return JSON.stringify({ name, color });
  },
});

const askModel = tool({
  name: 'test_input_required_result_capabilities',
  description: "Asks the client's model (a client without sampling is told so).",
  parameters: v.object({}),
  sideEffects: false,
  execute: async (_args, ctx) =>
    (await ctx.sample({ messages: [{ role: 'user', content: 'Say hi.' }], maxTokens: 20 })).text,
});

const askRoots = tool({
  name: 'test_input_required_result_list_roots',
  description: "Asks the client's roots and names them.",
  parameters: v.object({}),
  sideEffects: false,
  execute: async (_args, ctx) => {
    const roots = await ctx.listRoots({ key: 'client_roots' });
    return `Roots: ${roots.map((root) => root.uri).join(', ')}`;
  },
});

const askAll = tool({
  name: 'test_input_required_result_multiple_inputs',
  description: 'Asks a name, a greeting and the roots at once.',
  parameters: v.object({}),
  sideEffects: false,
  execute: async (_args, ctx) => {
    const [name, greeting, roots] = await Promise.all([
      ctx.elicit({
        key: 'user_name',
        message: 'What is your name?',
        schema: form('name', 'string'),
      }),
      ctx.sample({
        key: 'greeting',
        messages: [{ role: 'user', content: 'Generate a greeting' }],
        maxTokens: 50,
      }),
      ctx.listRoots({ key: 'client_roots' }),
    ]);
    return JSON.stringify({ name, greeting: greeting.text, roots });
  },
});

/** The tools of the input-required scenarios. */
export const inputRequiredTools = [
  askName,
  askCapital,
  confirming('test_input_required_result_request_state'),
  confirming('test_input_required_result_tampered_state'),
  twoSteps,
  askModel,
  askRoots,
  askAll,
];

/** The prompt of the non-tool-request scenario: `prompts/get` asks a form first. */
export const inputRequiredPrompt = prompt({
  name: 'test_input_required_result_prompt',
  description: 'Asks the user what context the prompt should use.',
  get: async (_args, ctx) => {
    const answer = await ctx.elicit({
      key: 'user_context',
      message: 'What context should the prompt use?',
      schema: form('context', 'string'),
    });
    const context = answer.action === 'accept' ? answer.content.context : '(none)';
    return `Use this context: ${context}`;
  },
});
