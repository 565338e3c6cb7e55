/**
 * OpenAI's Responses API (`POST /v1/responses`): the request body. What `openai()` speaks
 * by default against api.openai.com (docs/decisions/110); responses-turn.ts reads the answer.
 */
import type { AnswerSize, GenerateRequest, ModelWarning, ToolChoice } from '../core/index.ts';
import { mergeProviderOptions, warnUnsentProviderTools } from '../provider/index.ts';
import type { OpenAIOptions } from './openai.ts';
import { toResponsesInput } from './responses-input.ts';
import { openAIFunctionTools, type PreparedTurn, toOpenAIOutputFormat } from './tool.ts';

const PROVIDER = 'openai';

/** What the Responses body needs of `openai()`'s options. */
type ResponsesSettings = Pick<
  OpenAIOptions,
  'model' | 'strict' | 'reasoningEffort' | 'reasoningSummary' | 'store'
>;

/**
 * Models whose names say they reason (o-series, gpt-5, codex): with `store: false` they
 * are asked for `reasoning.encrypted_content`, which other models refuse.
 */
const REASONING_MODEL = /^(o\d|gpt-5|codex|gpt-oss)/;

/** What to `include` so that the calls of OpenAI's tools come back with their results. */
const RESULT_INCLUDES: Record<string, string> = {
  web_search: 'web_search_call.action.sources',
  file_search: 'file_search_call.results',
  code_interpreter: 'code_interpreter_call.outputs',
};

/**
 * The Responses body of a request (`store: false` unless asked, encrypted reasoning and
 * the results of OpenAI's tools included), with the builder and warnings of its turn.
 */
export function prepareResponses(
  settings: ResponsesSettings,
  request: GenerateRequest,
  stream: boolean,
  size: AnswerSize,
): PreparedTurn {
  const warnings: ModelWarning[] = [];
  const body: Record<string, unknown> = { model: settings.model };
  if (request.system) body.instructions = request.system;
  body.input = toResponsesInput(request.messages, warnings);
  const functions = openAIFunctionTools(request, settings.strict, warnings, size);
  const tools: Record<string, unknown>[] = functions.tools.map(({ function: fn }) => {
    // Responses makes function tools strict unless told otherwise: say which they are.
    const wire: Record<string, unknown> = { type: 'function', name: fn.name };
    if (fn.description) wire.description = fn.description;
    return { ...wire, parameters: fn.parameters, strict: fn.strict === true };
  });
  warnUnsentProviderTools('the OpenAI Responses API', PROVIDER, request, warnings);
  for (const tool of request.providerTools ?? []) {
    if (tool.provider === PROVIDER) tools.push({ ...tool.wire });
  }
  if (tools.length > 0) {
    body.tools = tools;
    if (request.toolChoice !== undefined) body.tool_choice = toolChoiceOf(request.toolChoice);
  }
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  const reasoning = reasoningOf(settings, request, warnings);
  if (reasoning) body.reasoning = reasoning;
  if (request.output) {
    body.text = {
      format: { type: 'json_schema', ...toOpenAIOutputFormat(request.output, warnings) },
    };
  }
  const store = settings.store ?? false;
  body.store = store;
  const include = new Set<string>();
  if (!store && (reasoning || REASONING_MODEL.test(settings.model))) {
    include.add('reasoning.encrypted_content');
  }
  for (const tool of tools) {
    const results = RESULT_INCLUDES[String(tool.type)];
    if (results) include.add(results);
  }
  if (stream) body.stream = true;
  mergeProviderOptions(PROVIDER, body, request);
  // A caller's `include` adds to these: dropping encrypted reasoning would break the next turn.
  if (Array.isArray(body.include)) for (const entry of body.include) include.add(String(entry));
  if (include.size > 0) body.include = [...include];
  return { body, builder: functions.builder, warnings };
}

function reasoningOf(
  settings: ResponsesSettings,
  request: GenerateRequest,
  warnings: ModelWarning[],
): Record<string, unknown> | undefined {
  const effort = request.reasoning?.effort ?? settings.reasoningEffort;
  if (request.reasoning?.budgetTokens !== undefined) {
    warnings.push({
      message:
        'reasoning.budgetTokens not sent: the Responses API takes reasoning.effort, not a token budget',
    });
  }
  if (effort === undefined && settings.reasoningSummary === undefined) return undefined;
  const reasoning: Record<string, unknown> = {};
  if (effort !== undefined) reasoning.effort = effort;
  if (settings.reasoningSummary !== undefined) reasoning.summary = settings.reasoningSummary;
  return reasoning;
}

function toolChoiceOf(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
}
