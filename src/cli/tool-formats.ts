/**
 * The formats `fino tools --format` prints. Each wire shape is built by the module that
 * sends it (the model adapters, the MCP server), so what is printed is what is sent.
 * Those modules load only for the format that needs them: `fino tools` stays light.
 */
import type { AnyTask } from '../task/index.ts';

/** The formats `fino tools --format` prints. */
export const TOOL_FORMATS = ['neutral', 'openai', 'anthropic', 'gemini', 'mcp'] as const;
export type ToolFormat = (typeof TOOL_FORMATS)[number];

/**
 * What each format prints, for `fino tools --help`: the one list the help, the summary of
 * `fino --help` and the `--format` choices are all made from.
 */
export const TOOL_FORMAT_SHAPES: Readonly<Record<ToolFormat, string>> = {
  neutral: '{ name, description, parameters }',
  openai: "{ type: 'function', function: { name, description, parameters } }",
  anthropic: '{ name, description, input_schema }',
  gemini: '{ name, description, parameters } (a function declaration)',
  mcp: 'what an MCP server lists: { name, title?, description, inputSchema,\n             outputSchema?, annotations?, execution?, _meta? }',
};

/**
 * The tools in `format`: `neutral` is fino's own `{ name, description, parameters }`;
 * `openai`, `anthropic` and `gemini` are what those adapters send (OpenAI without strict
 * mode unless a definition asks for it, Gemini's function declaration); `mcp` is what
 * `mcpServer()` lists.
 */
export async function formatTools(
  tools: readonly AnyTask[],
  format: ToolFormat,
): Promise<unknown[]> {
  if (format === 'mcp') {
    const { toMcpTool } = await import('../ai/mcp/index.ts');
    return tools.map((tool) => toMcpTool(tool));
  }
  const definitions = tools.map((tool) => tool.toToolDefinition());
  if (format === 'neutral') return definitions;
  const { toAnthropicTool, toGeminiTool, toOpenAITool } = await import('../ai/model/index.ts');
  return definitions.map((definition) => {
    if (format === 'openai') return toOpenAITool(definition);
    return format === 'anthropic' ? toAnthropicTool(definition) : toGeminiTool(definition);
  });
}
