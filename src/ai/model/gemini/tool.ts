/**
 * A tool as the Gemini API takes it (a function declaration), built in this one place
 * for the adapter and for `fino tools --format gemini`.
 */

import type { JsonSchemaObject, ModelWarning, ToolDefinition } from '../core/index.ts';
import { toGeminiSchema, toGeminiWireSchema } from './schema.ts';

/** Gemini's `functionDeclarations[]` entry: `{ name, description, parameters }`. */
export interface GeminiTool {
  name: string;
  description: string;
  /** The parameters in Gemini's OpenAPI subset, `type` names in the API's enum spelling. */
  parameters: JsonSchemaObject;
}

/**
 * A tool definition as a Gemini function declaration: the parameters converted with
 * {@link toGeminiSchema}, each keyword it had to drop or rewrite reported to `warnings`.
 *
 * @example
 * ```ts
 * import { toGeminiTool } from 'fino:ai/model';
 *
 * const wire = toGeminiTool({
 *   name: 'weather',
 *   description: 'Current weather for a city.',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } } },
 * });
 * console.log(wire.parameters.type); // 'OBJECT'
 * ```
 */
export function toGeminiTool(tool: ToolDefinition, warnings?: ModelWarning[]): GeminiTool {
  const converted = toGeminiSchema(tool.parameters);
  for (const warning of converted.warnings) warnings?.push({ tool: tool.name, ...warning });
  return {
    name: tool.name,
    description: tool.description,
    parameters: toGeminiWireSchema(converted.schema),
  };
}
