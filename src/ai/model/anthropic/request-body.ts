/**
 * The body of an Anthropic Messages request: system prompt, messages, tools, extended
 * thinking (checked before anything is sent), structured output and prompt caching.
 */
import type { GenerateRequest, ModelWarning, ToolChoice } from '../core/index.ts';
import { mergeProviderOptions, warnUnsentProviderTools } from '../provider/index.ts';
import type { AnthropicOptions } from './anthropic.ts';
import { toAnthropicMessages } from './messages.ts';
import type { Block } from './paused-turn.ts';
import { type AnthropicTool, toAnthropicTool } from './tool.ts';

const PROVIDER = 'anthropic';

/** Checks the thinking budget and the temperature it allows before anything is sent. */
function thinkingOf(request: GenerateRequest, maxTokens: number) {
  const budget = request.reasoning?.budgetTokens;
  const { temperature } = request;
  if (temperature !== undefined && temperature > 1) {
    throw new RangeError(
      `${PROVIDER}: request.temperature: expected a number from 0 to 1, received ${temperature}`,
    );
  }
  if (budget === undefined) return undefined;
  if (budget < 1024 || budget >= maxTokens) {
    throw new RangeError(
      `${PROVIDER}: request.reasoning.budgetTokens: expected at least 1024 and less than max_tokens (${maxTokens}), received ${budget}`,
    );
  }
  const choice = request.toolChoice;
  if (request.tools?.length && (choice === 'required' || typeof choice === 'object')) {
    throw new TypeError(
      `${PROVIDER}: request.toolChoice: expected 'auto' or 'none' with extended thinking (reasoning.budgetTokens), received ${JSON.stringify(choice)}`,
    );
  }
  if (temperature !== undefined && temperature !== 1) {
    throw new RangeError(
      `${PROVIDER}: request.temperature: expected 1 or none with extended thinking (reasoning.budgetTokens), received ${temperature}`,
    );
  }
  return { type: 'enabled', budget_tokens: budget };
}

/** The options of `anthropic()` that shape a request body. */
export type BodySettings = Pick<AnthropicOptions, 'model' | 'maxTokens' | 'cacheControl'>;

/**
 * The request body. `paused` holds the blocks of a turn the API paused so far, exactly as
 * received (server tool blocks included): they go last as the assistant turn to continue
 * (docs/decisions/076).
 */
export function bodyOf(
  options: BodySettings,
  request: GenerateRequest,
  stream: boolean,
  warnings: ModelWarning[],
  paused: Block[],
): Record<string, unknown> {
  const maxTokens = request.maxTokens ?? options.maxTokens ?? 4096;
  const thinking = thinkingOf(request, maxTokens);
  const { system, messages } = toAnthropicMessages(request.system, request.messages, warnings);
  warnUnsentProviderTools('the Anthropic Messages API', undefined, request, warnings);
  const body: Record<string, unknown> = { model: options.model, max_tokens: maxTokens };
  if (system !== undefined) {
    body.system = options.cacheControl
      ? [{ type: 'text', text: system, cache_control: EPHEMERAL }]
      : system;
  }
  if (paused.length > 0) {
    const last = messages.at(-1);
    if (last?.role === 'assistant') last.content.push(...paused);
    else messages.push({ role: 'assistant', content: paused.slice() });
  }
  body.messages = messages;
  if (request.tools?.length) {
    const tools: Array<AnthropicTool & { cache_control?: unknown }> = request.tools.map((tool) =>
      toAnthropicTool(tool),
    );
    // A breakpoint on the last tool caches every tool definition before it.
    if (options.cacheControl) tools[tools.length - 1].cache_control = EPHEMERAL;
    body.tools = tools;
    if (request.toolChoice !== undefined) body.tool_choice = toolChoiceOf(request.toolChoice);
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (thinking) body.thinking = thinking;
  const outputConfig: Record<string, unknown> = {};
  if (request.reasoning?.effort !== undefined) outputConfig.effort = request.reasoning.effort;
  if (request.output) outputConfig.format = { type: 'json_schema', schema: request.output.schema };
  if (Object.keys(outputConfig).length > 0) body.output_config = outputConfig;
  if (stream) body.stream = true;
  mergeProviderOptions(PROVIDER, body, request);
  return body;
}

const EPHEMERAL = { type: 'ephemeral' };

function toolChoiceOf(choice: ToolChoice): Record<string, string> {
  if (typeof choice !== 'string') return { type: 'tool', name: choice.name };
  return { type: choice === 'required' ? 'any' : choice };
}
