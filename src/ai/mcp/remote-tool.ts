/**
 * One remote MCP tool as a fino `Tool`: the server's JSON Schema validated locally,
 * annotations read back as declarations, results mapped back to content parts.
 */
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/client';
import { type Tool, tool } from '../tool/index.ts';
import { fromAnnotations } from './annotations.ts';
import { fromMcpContent } from './content.ts';

/** How a remote tool reaches its server. */
export interface RemoteCall {
  call(
    params: { name: string; arguments: Record<string, unknown> },
    signal: AbortSignal,
  ): Promise<CallToolResult>;
  /** Whether destructive, not read-only tools require approval. */
  approveDestructive: boolean;
}

/** Builds the fino `Tool` for one remote definition. */
export function remoteTool(definition: McpTool, remote: RemoteCall): Tool {
  const behaviour = fromAnnotations(definition.annotations);
  return tool({
    name: definition.name,
    description: definition.description ?? definition.title ?? definition.name,
    parameters: definition.inputSchema,
    ...((definition.title ?? behaviour.title)
      ? { title: definition.title ?? behaviour.title }
      : {}),
    ...(behaviour.risk ? { risk: behaviour.risk } : {}),
    ...(behaviour.sideEffects === false ? { sideEffects: false } : {}),
    requiresApproval: remote.approveDestructive && behaviour.requiresApproval,
    execute: async (args: Record<string, unknown>, ctx) => {
      let result: CallToolResult;
      try {
        result = await remote.call({ name: definition.name, arguments: args }, ctx.signal);
      } catch (error) {
        // A cancelled call fails with the caller's own abort reason, as every fino tool does.
        throw ctx.signal.aborted ? ctx.signal.reason : error;
      }
      const content = result.content.map(fromMcpContent);
      return result.isError === true ? { content, isError: true } : { content };
    },
  });
}
