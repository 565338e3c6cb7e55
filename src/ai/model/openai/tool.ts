/**
 * A tool as OpenAI Chat Completions takes it, built in this one place for the adapter and
 * for `fino tools --format openai`.
 */

import {
  type AnswerSize,
  type GenerateRequest,
  type JsonSchemaObject,
  type ModelWarning,
  type OutputSpec,
  type ToolDefinition,
  TurnBuilder,
} from '../core/index.ts';
import { fromOpenAIStrictArgs, toOpenAIStrictSchema } from './strict-schema.ts';

/** OpenAI's `tools[]` entry: `{ type: 'function', function: { name, description, parameters, strict? } }`. */
export interface OpenAITool {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: JsonSchemaObject;
    /** Present when the schema was rewritten for strict mode (structured outputs). */
    strict?: true;
  };
}

/** Options of {@link toOpenAITool}. */
export interface OpenAIToolOptions {
  /**
   * Strict mode: `true` for every tool, or the names of the tools to make strict (the
   * adapter's `strict` option). A definition's own `strict: boolean` wins. Default off.
   */
  strict?: boolean | readonly string[];
  /** Receives the schema rewrites strict mode made, each naming the tool. */
  warnings?: ModelWarning[];
}

/**
 * A tool definition in OpenAI's wire shape. In strict mode the parameters are rewritten
 * to the subset OpenAI accepts ({@link toOpenAIStrictSchema}) and `strict: true` is set.
 *
 * @example
 * ```ts
 * import { toOpenAITool } from 'fino:ai/model';
 *
 * const wire = toOpenAITool({
 *   name: 'weather',
 *   description: 'Current weather for a city.',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 * });
 * console.log(wire.function.name); // 'weather'
 * ```
 */
export function toOpenAITool(tool: ToolDefinition, options: OpenAIToolOptions = {}): OpenAITool {
  const base = { name: tool.name, description: tool.description };
  if (!isStrict(options.strict, tool)) {
    return { type: 'function', function: { ...base, parameters: tool.parameters } };
  }
  const converted = toOpenAIStrictSchema(tool.parameters);
  for (const warning of converted.warnings) options.warnings?.push({ tool: tool.name, ...warning });
  return { type: 'function', function: { ...base, parameters: converted.schema, strict: true } };
}

function isStrict(strict: OpenAIToolOptions['strict'], tool: ToolDefinition): boolean {
  const own = (tool as ToolDefinition & { strict?: unknown }).strict;
  if (typeof own === 'boolean') return own;
  return Array.isArray(strict) ? strict.includes(tool.name) : strict === true;
}

/**
 * A structured answer's schema as OpenAI's structured outputs take it (Chat Completions'
 * `response_format.json_schema`, Responses' `text.format`): the schema in strict mode,
 * its rewrites reported as `output schema:` warnings.
 */
export function toOpenAIOutputFormat(
  output: OutputSpec,
  warnings: ModelWarning[],
): { name: string; schema: JsonSchemaObject; strict: true } {
  const converted = toOpenAIStrictSchema(output.schema);
  for (const warning of converted.warnings) {
    warnings.push({ ...warning, message: `output schema: ${warning.message}` });
  }
  return { name: output.name ?? 'output', schema: converted.schema, strict: true };
}

/**
 * What both OpenAI APIs make of a request's function tools: each in the Chat Completions
 * shape ({@link toOpenAITool}, strict where `strict` says, its rewrites warned), and the
 * builder of the turn that answers the request, which undoes strict mode in the arguments
 * of the strict tools and in a structured answer.
 */
export function openAIFunctionTools(
  request: GenerateRequest,
  strict: OpenAIToolOptions['strict'],
  warnings: ModelWarning[],
  size: AnswerSize,
): { tools: OpenAITool[]; builder: TurnBuilder } {
  const strictSchemas = new Map<string, JsonSchemaObject>();
  const tools = (request.tools ?? []).map((tool) => {
    const wire = toOpenAITool(tool, { strict, warnings });
    if (wire.function.strict) strictSchemas.set(tool.name, tool.parameters);
    return wire;
  });
  return { tools, builder: openAITurnBuilder(strictSchemas, request.output, size) };
}

/**
 * The builder of an OpenAI turn (either API): strict mode's `null`s for absent values are
 * removed from the arguments of the tools in `strictSchemas` and from a structured answer.
 */
function openAITurnBuilder(
  strictSchemas: ReadonlyMap<string, JsonSchemaObject>,
  output: OutputSpec | undefined,
  size: AnswerSize,
): TurnBuilder {
  const builder = new TurnBuilder(size, (name, args) => {
    const schema = strictSchemas.get(name);
    return schema ? fromOpenAIStrictArgs(args, schema) : args;
  });
  if (output) builder.parseOutput((value) => fromOpenAIStrictArgs(value, output.schema));
  return builder;
}

/**
 * What both OpenAI APIs make of a request before sending it: the body, the builder of the
 * turn that answers it (strict arguments undone) and the warnings so far.
 */
export interface PreparedTurn {
  body: Record<string, unknown>;
  builder: TurnBuilder;
  warnings: ModelWarning[];
}
