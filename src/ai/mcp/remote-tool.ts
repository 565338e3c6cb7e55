/**
 * One remote MCP tool as a fino `Tool`: the server's JSON Schema validated locally,
 * annotations read back as declarations, results mapped back to content parts.
 */
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/client';
import { type Tool, tool } from '../tool/index.ts';
import { fromAnnotations } from './annotations.ts';
import { hintsApproval } from './approval-meta.ts';
import { fromMcpContent } from './content.ts';

/** How a remote tool reaches its server. */
export interface RemoteCall {
  /**
   * Sends one call. `approved` is set for a tool that `requiresApproval`: its `execute`
   * runs only once its harness (an agent, a session) cleared the call, or when code
   * invokes it directly, which is that code's own decision.
   */
  call(
    params: { name: string; arguments: Record<string, unknown> },
    signal: AbortSignal,
    approved: boolean,
  ): Promise<CallToolResult>;
  /** Whether tools that are destructive and not read-only, or hint at approval, require it. */
  approveDestructive: boolean;
}

/** Builds the fino `Tool` for one remote definition; throws when its schema is unusable. */
export function remoteTool(definition: McpTool, remote: RemoteCall): Tool {
  const behaviour = fromAnnotations(definition.annotations);
  const requiresApproval =
    remote.approveDestructive && (behaviour.requiresApproval || hintsApproval(definition));
  return tool({
    name: definition.name,
    description: definition.description ?? definition.title ?? definition.name,
    parameters: definition.inputSchema,
    ...((definition.title ?? behaviour.title)
      ? { title: definition.title ?? behaviour.title }
      : {}),
    ...(behaviour.risk ? { risk: behaviour.risk } : {}),
    ...(behaviour.sideEffects !== undefined ? { sideEffects: behaviour.sideEffects } : {}),
    ...(behaviour.idempotent !== undefined ? { idempotent: behaviour.idempotent } : {}),
    requiresApproval,
    execute: async (args: Record<string, unknown>, ctx) => {
      let result: CallToolResult;
      try {
        result = await remote.call(
          { name: definition.name, arguments: args },
          ctx.signal,
          requiresApproval,
        );
      } catch (error) {
        // A cancelled call fails with the caller's own abort reason, as every fino tool does.
        throw ctx.signal.aborted ? ctx.signal.reason : error;
      }
      const content = result.content.map(fromMcpContent);
      return result.isError === true ? { content, isError: true } : { content };
    },
  });
}
