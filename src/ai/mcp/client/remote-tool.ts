/**
 * One remote MCP tool as a fino `Tool`: the server's JSON Schema validated locally,
 * annotations read back as declarations, results mapped back to content parts.
 */
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/client';
import type { ToolResultObject } from '../../../task/index.ts';
import { type Tool, type ToolRunContext, tool } from '../../tool/index.ts';
import {
  fromAnnotations,
  fromMcpContent,
  hintsApproval,
  outputValidator,
  structuredOutput,
  withTextForm,
} from '../protocol/index.ts';

/** One call of a remote tool: its name, arguments, and whether it can run as a task. */
export interface RemoteCallRequest {
  name: string;
  arguments: Record<string, unknown>;
  /** The definition's `execution.taskSupport`, when it declares one. */
  taskSupport?: string;
}

/** How a remote tool reaches its server. */
export interface RemoteCall {
  /**
   * Sends one call, directly or as a task (whose progress, suspension and resumption go
   * through `ctx`). `approved` is set for a tool that `requiresApproval`: its `execute`
   * runs only once its harness (an agent, a session) cleared the call, or when code
   * invokes it directly, which is that code's own decision.
   */
  call(request: RemoteCallRequest, ctx: ToolRunContext, approved: boolean): Promise<CallToolResult>;
  /** Whether tools that are destructive and not read-only, or hint at approval, require it. */
  approveDestructive: boolean;
  /** The fingerprint of the definition this tool was built from. */
  fingerprint: string;
  /** The fingerprint the server's latest listing gives `name`; `undefined` when it is gone. */
  currentFingerprint(name: string): string | undefined;
}

/** Builds the fino `Tool` for one remote definition; throws when its schema is unusable. */
export function remoteTool(definition: McpTool, remote: RemoteCall): Tool {
  const behaviour = fromAnnotations(definition.annotations);
  const validator = outputValidator(definition.outputSchema, `tool "${definition.name}"`);
  const requiresApproval =
    remote.approveDestructive && (behaviour.requiresApproval || hintsApproval(definition));
  return tool({
    name: definition.name,
    description: definition.description ?? definition.title ?? definition.name,
    parameters: definition.inputSchema,
    ...(definition.outputSchema ? { outputSchema: definition.outputSchema } : {}),
    ...((definition.title ?? behaviour.title)
      ? { title: definition.title ?? behaviour.title }
      : {}),
    ...(behaviour.risk ? { risk: behaviour.risk } : {}),
    ...(behaviour.sideEffects !== undefined ? { sideEffects: behaviour.sideEffects } : {}),
    ...(behaviour.idempotent !== undefined ? { idempotent: behaviour.idempotent } : {}),
    requiresApproval,
    execute: async (args: Record<string, unknown>, ctx) => {
      const stale = staleness(definition.name, remote);
      if (stale !== undefined) return { content: stale, isError: true };
      const request: RemoteCallRequest = { name: definition.name, arguments: args };
      const taskSupport = definition.execution?.taskSupport;
      if (typeof taskSupport === 'string') request.taskSupport = taskSupport;
      let result: CallToolResult;
      try {
        result = await remote.call(request, ctx, requiresApproval);
      } catch (error) {
        // A cancelled call fails with the caller's own abort reason, as every fino tool does.
        throw ctx.signal.aborted ? ctx.signal.reason : error;
      }
      const content = result.content.map(fromMcpContent);
      if (result.isError === true) return { content, isError: true };
      const received: ToolResultObject = { content };
      if (isJsonObject(result.structuredContent))
        received.structuredContent = result.structuredContent;
      const { value, problem } = structuredOutput(definition.name, received, validator);
      if (problem !== undefined) {
        return { content: `The remote server's answer was refused. ${problem}`, isError: true };
      }
      return value === undefined
        ? { content }
        : { content: withTextForm(content, value), structuredContent: value };
    },
  });
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why a tool built from an earlier listing must not call the server, if it must not. */
function staleness(name: string, remote: RemoteCall): string | undefined {
  const current = remote.currentFingerprint(name);
  if (current === undefined) {
    return `The remote tool "${name}" is no longer offered by its server; it was not called. List the tools again.`;
  }
  if (current !== remote.fingerprint) {
    return `The remote tool "${name}" changed its definition since it was listed; it was not called. List the tools again and review the new definition.`;
  }
  return undefined;
}
