/**
 * How a fino tool is listed to MCP clients (`tools/list`): built in this one place, for
 * the server and for `fino tools --format mcp`, so both show the same definition.
 */
import type { Tool as McpTool } from '@modelcontextprotocol/server';
import type { AnyTask } from '../../../task/index.ts';
import { normalizeSchema } from '../../../validate/index.ts';
import { REQUIRES_APPROVAL_META_KEY, toAnnotations } from '../protocol/index.ts';

/**
 * A tool's MCP listing entry: `name`, `description`, `inputSchema`, and what the tool
 * declares: `title`, `annotations` (from `risk`, `sideEffects`, `idempotent`, `effects`),
 * `_meta` marking a tool that requires approval, `execution.taskSupport` for a tool run
 * as an MCP task, and `outputSchema`.
 *
 * @example
 * ```ts
 * import { toMcpTool } from 'fino:ai/mcp';
 * import { tool } from 'fino:ai/tool';
 * import { v } from 'fino:validate';
 *
 * const weather = tool({
 *   name: 'weather',
 *   description: 'Current weather for a city.',
 *   parameters: v.object({ city: v.string() }),
 *   sideEffects: false,
 *   execute: ({ city }) => `Sunny in ${city}`,
 * });
 * console.log(toMcpTool(weather).annotations); // { readOnlyHint: true }
 * ```
 */
export function toMcpTool(tool: AnyTask): McpTool {
  const definition = tool.toToolDefinition();
  const described: McpTool = {
    name: definition.name,
    description: definition.description,
    inputSchema: definition.parameters as McpTool['inputSchema'],
  };
  const title = (tool as { title?: unknown }).title;
  if (typeof title === 'string') described.title = title;
  const annotations = toAnnotations({
    title: described.title,
    risk: tool.risk,
    sideEffects: tool.sideEffects,
    idempotent: tool.idempotent,
    effects: tool.effects,
  });
  if (annotations !== undefined) described.annotations = annotations;
  if (tool.requiresApproval) described._meta = { [REQUIRES_APPROVAL_META_KEY]: true };
  if (tool.execution !== undefined) {
    described.execution = { taskSupport: tool.execution === 'task' ? 'required' : 'optional' };
  }
  if (tool.outputSchema !== undefined) {
    described.outputSchema = normalizeSchema(tool.outputSchema) as McpTool['outputSchema'];
  }
  return described;
}
