/**
 * The body of a Gemini `generateContent` request: contents, function declarations, the
 * generation config (thinking, structured output) and `providerOptions.gemini` merged in;
 * tool names Gemini would refuse are refused first.
 */
import {
  type GenerateRequest,
  isRecord,
  type ModelWarning,
  type ToolChoice,
} from '../core/index.ts';
import { warnUnsentProviderTools } from '../provider/index.ts';
import { GEMINI, toGeminiContents } from './messages.ts';
import { toGeminiSchema, toGeminiWireSchema } from './schema.ts';
import { toGeminiTool } from './tool.ts';

const PROVIDER = GEMINI;
/** Gemini's rule for function names, as its API reference states it. */
const FUNCTION_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
const EFFORT_LEVELS = { low: 'LOW', medium: 'MEDIUM', high: 'HIGH' } as const;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Throws a `TypeError` for a tool name Gemini would reject, before anything is sent. */
export function checkToolNames(request: GenerateRequest): void {
  request.tools?.forEach((tool, i) => {
    if (!FUNCTION_NAME.test(tool.name)) {
      throw new TypeError(
        `${PROVIDER}: tools[${i}].name: expected 1 to 64 characters, starting with a letter or an underscore, then letters, digits, '_', '.', ':' or '-', received ${JSON.stringify(tool.name)}`,
      );
    }
  });
  const choice = request.toolChoice;
  if (typeof choice === 'object' && choice !== null) {
    if (!request.tools?.some((tool) => tool.name === choice.name)) {
      throw new TypeError(
        `${PROVIDER}: toolChoice.name: expected the name of one of request.tools, received ${JSON.stringify(choice.name)}`,
      );
    }
  }
}

export function bodyOf(
  request: GenerateRequest,
  warnings: ModelWarning[],
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...toGeminiContents(request.system, request.messages, warnings),
  };
  warnUnsentProviderTools('the Gemini API', undefined, request, warnings);
  if (request.tools?.length) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((tool) => toGeminiTool(tool, warnings)),
      },
    ];
    if (request.toolChoice !== undefined) {
      body.toolConfig = { functionCallingConfig: toolChoiceOf(request.toolChoice) };
    }
  }
  const config = generationConfigOf(request, warnings);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  // Checked to be an object by checkRequest.
  const extra = request.providerOptions?.[PROVIDER];
  if (extra !== undefined) mergeInto(body, extra, 'providerOptions.gemini');
  return body;
}

function generationConfigOf(
  request: GenerateRequest,
  warnings: ModelWarning[],
): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  const { reasoning, output } = request;
  if (reasoning) {
    const thinking: Record<string, unknown> = { includeThoughts: true };
    if (reasoning.budgetTokens !== undefined) {
      thinking.thinkingBudget = reasoning.budgetTokens;
      if (reasoning.effort !== undefined) {
        warnings.push({
          message: `reasoning.effort ${JSON.stringify(reasoning.effort)} not sent: Gemini takes a thinking budget or a level, not both, and budgetTokens was given`,
        });
      }
    } else if (reasoning.effort !== undefined) {
      thinking.thinkingLevel = EFFORT_LEVELS[reasoning.effort];
    }
    config.thinkingConfig = thinking;
  }
  if (output) {
    const converted = toGeminiSchema(output.schema);
    for (const warning of converted.warnings) {
      warnings.push({ ...warning, message: `output schema: ${warning.message}` });
    }
    config.responseMimeType = 'application/json';
    config.responseSchema = toGeminiWireSchema(converted.schema);
  }
  return config;
}

function toolChoiceOf(choice: ToolChoice): Record<string, unknown> {
  if (typeof choice !== 'string') return { mode: 'ANY', allowedFunctionNames: [choice.name] };
  return { mode: choice === 'required' ? 'ANY' : choice === 'none' ? 'NONE' : 'AUTO' };
}

/**
 * Merges `extra` into `target`: objects merge key by key (so `generationConfig` fields
 * add to the adapter's), anything else replaces. Prototype keys are refused.
 */
function mergeInto(
  target: Record<string, unknown>,
  extra: Record<string, unknown>,
  path: string,
): void {
  for (const [key, value] of Object.entries(extra)) {
    if (UNSAFE_KEYS.has(key)) {
      throw new TypeError(
        `${PROVIDER}: ${path}: expected ordinary keys, received ${JSON.stringify(key)}`,
      );
    }
    const current = target[key];
    if (isRecord(value)) {
      const copy = isRecord(current) ? { ...current } : {};
      mergeInto(copy, value, `${path}.${key}`);
      target[key] = copy;
    } else target[key] = value;
  }
}
