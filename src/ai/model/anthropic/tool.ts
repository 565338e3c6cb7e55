/**
 * A tool as the Anthropic Messages API takes it, built in this one place for the adapter
 * and for `fino tools --format anthropic`.
 */
import type { JsonSchemaObject, ToolDefinition } from '../core/index.ts';

/** Anthropic's `tools[]` entry: `{ name, description, input_schema }`. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchemaObject;
}

/**
 * A tool definition in Anthropic's wire shape.
 *
 * @example
 * ```ts
 * import { toAnthropicTool } from 'fino:ai/model';
 *
 * const wire = toAnthropicTool({
 *   name: 'weather',
 *   description: 'Current weather for a city.',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } } },
 * });
 * console.log(wire.input_schema); // { type: 'object', properties: { city: … } }
 * ```
 */
export function toAnthropicTool(tool: ToolDefinition): AnthropicTool {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters };
}
