/**
 * Per-call overhead of `Tool.invoke()` on a small tool (`add`, two numbers), against:
 *
 * - `floor`: the practical minimum — an Ajv-compiled validator and a direct call in
 *   try/catch, returning the same `{ content }` / `{ content, isError }` shapes.
 * - `ai-sdk`: the Vercel AI SDK's (`ai` 6) execution path without a model. Its loop
 *   (`executeToolCall`) is not exported, so this composes the exported primitives it is
 *   built from: `safeValidateTypes` on the tool's Zod input schema, then `executeTool`
 *   (the generator it iterates), in try/catch — telemetry and callbacks left out.
 * - `openai-agents`: the OpenAI Agents SDK's own `FunctionTool.invoke(runContext, json)`,
 *   which takes the model's JSON text: parse, Zod validation, call, error folding.
 *   `fino (from JSON text)` does the same work (JSON.parse, then invoke) for that pairing.
 *
 * Valid arguments are used (the common case); every peer returns the tool's text.
 *
 * A second table times, in batches (`compareBatched`, ../harness.ts), `invoke()` against a
 * synchronous floor — Ajv validation, try/catch and the synchronous executor, no `await` —
 * since `invoke()` does not await a result that is already there; with two steps between
 * them: the floor as an async function (the promise `invoke()` returns) and the floor with
 * fino's validator in Ajv's place.
 */
import { executeTool, safeValidateTypes, zodSchema } from '@ai-sdk/provider-utils';
import { tool as agentsTool, RunContext } from '@openai/agents';
import { tool as aiTool } from 'ai';
import { Ajv } from 'ajv';
import { z } from 'zod';
import { tool } from '../../src/ai/tool/index.ts';
import { compile, v } from '../../src/validate/index.ts';
import { compare, compareBatched } from '../harness.ts';

const add = ({ a, b }: { a: number; b: number }) => String(a + b);
const args = { a: 2, b: 3 };
const text = JSON.stringify(args);

const finoTool = tool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: v.object({ a: v.number(), b: v.number() }),
  execute: add,
});

const validate = new Ajv().compile<{ a: number; b: number }>(finoTool.parameters);
const floor = async (input: unknown) => {
  if (!validate(input)) return { content: JSON.stringify(validate.errors), isError: true };
  try {
    return { content: await add(input) };
  } catch (error) {
    return { content: (error as Error).message, isError: true };
  }
};

const zodArgs = z.object({ a: z.number(), b: z.number() });
const aiSdkTool = aiTool({ description: 'Add two numbers.', inputSchema: zodArgs, execute: add });
const aiSdkSchema = zodSchema(zodArgs);
const aiSdk = async (input: unknown) => {
  const parsed = await safeValidateTypes({ value: input, schema: aiSdkSchema });
  if (!parsed.success) return { content: parsed.error.message, isError: true };
  try {
    let output: unknown;
    for await (const part of executeTool({
      tool: aiSdkTool,
      input: parsed.value,
      options: { toolCallId: 'call_1', messages: [], context: undefined as never },
    })) {
      if (part.type === 'final') output = part.output;
    }
    return { content: output };
  } catch (error) {
    return { content: (error as Error).message, isError: true };
  }
};

const agentsFunctionTool = agentsTool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: zodArgs,
  execute: add,
});
const runContext = new RunContext();

// Every peer must give the same answer before it is timed.
for (const answer of [
  await floor(args),
  await finoTool.invoke(args),
  await aiSdk(args),
  { content: await agentsFunctionTool.invoke(runContext, text) },
]) {
  if (answer.content !== '5') throw new Error(`a peer answered ${JSON.stringify(answer)}`);
}

await compare(
  'invoke(): validate { a, b } and call the executor',
  {
    floor: () => floor(args),
    fino: () => finoTool.invoke(args),
    'fino (from JSON text)': () => finoTool.invoke(JSON.parse(text)),
    'ai-sdk': () => aiSdk(args),
    'openai-agents': () => agentsFunctionTool.invoke(runContext, text),
  },
  { baseline: 'floor' },
);

const syncFloor = (input: unknown) => {
  if (!validate(input)) return { content: JSON.stringify(validate.errors), isError: true };
  try {
    return { content: add(input) };
  } catch (error) {
    return { content: (error as Error).message, isError: true };
  }
};
// Where invoke()'s time goes beyond the floor: the same floor as an async function (the
// promise invoke() must return), and fino's validator in the floor's place (validation).
const asyncFloor = async (input: unknown) => syncFloor(input);
const finoValidator = compile(finoTool.parameters);
const finoFloor = (input: unknown) => {
  const parsed = finoValidator.safeParse(input);
  if (!parsed.success) return { content: parsed.error.message, isError: true };
  try {
    return { content: add(parsed.value as { a: number; b: number }) };
  } catch (error) {
    return { content: (error as Error).message, isError: true };
  }
};
for (const answer of [syncFloor(args), await asyncFloor(args), finoFloor(args)])
  if (answer.content !== '5') throw new Error(`a floor answered ${JSON.stringify(answer)}`);
await compareBatched(
  'invoke() against a synchronous floor, in batches (target ≤ 1.3×)',
  {
    'sync floor': () => syncFloor(args),
    'async floor': () => asyncFloor(args),
    'sync floor, fino validator': () => finoFloor(args),
    'fino invoke()': () => finoTool.invoke(args),
  },
  { baseline: 'sync floor' },
);
