/**
 * Tool definitions in the shapes providers and protocols expect.
 */
import type { ToolDefinition } from '../task/index.ts';

/** The formats `fino tools --format` prints. */
export const TOOL_FORMATS = ['neutral', 'openai', 'anthropic', 'mcp'] as const;
export type ToolFormat = (typeof TOOL_FORMATS)[number];

/** OpenAI Chat Completions: `{ type: 'function', function: { name, description, parameters } }`. */
export const toOpenAiTool = (def: ToolDefinition) => ({
  type: 'function' as const,
  function: { name: def.name, description: def.description, parameters: def.parameters },
});

/** Anthropic Messages: `{ name, description, input_schema }`. */
export const toAnthropicTool = (def: ToolDefinition) => ({
  name: def.name,
  description: def.description,
  input_schema: def.parameters,
});

/** MCP `tools/list`: `{ name, description, inputSchema }`. */
export const toMcpTool = (def: ToolDefinition) => ({
  name: def.name,
  description: def.description,
  inputSchema: def.parameters,
});

/** A definition in `format`; `neutral` is fino's own `{ name, description, parameters }`. */
export function formatToolDefinition(def: ToolDefinition, format: ToolFormat): unknown {
  switch (format) {
    case 'openai':
      return toOpenAiTool(def);
    case 'anthropic':
      return toAnthropicTool(def);
    case 'mcp':
      return toMcpTool(def);
    default:
      return def;
  }
}
