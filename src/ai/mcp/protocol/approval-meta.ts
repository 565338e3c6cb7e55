/**
 * What a fino server tells a fino client about approvals, in MCP `_meta` (which any other
 * peer ignores): that a tool requires approval, and which call an approval elicitation
 * is about. See docs/decisions/051.
 */
import type { Tool as McpTool } from '@modelcontextprotocol/server';

/** On a tool definition: `true` when a human must approve each call (`requiresApproval`). */
export const REQUIRES_APPROVAL_META_KEY = 'fino/requiresApproval';

/** On an approval elicitation: `{ tool, arguments }`, the call the user is asked about. */
export const APPROVAL_META_KEY = 'fino/approval';

/** The call an approval elicitation is about. */
export interface ApprovalSubject {
  tool: string;
  arguments: unknown;
}

/** The `_meta` of an approval elicitation for calling `tool` with `args`. */
export function approvalMeta(tool: string, args: unknown): Record<string, unknown> {
  return { [APPROVAL_META_KEY]: { tool, arguments: args } satisfies ApprovalSubject };
}

/** The call an elicitation asks approval for, when a fino server sent it; else `undefined`. */
export function approvalSubject(
  params: { _meta?: unknown } | undefined,
): ApprovalSubject | undefined {
  const meta = params?._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const subject = (meta as Record<string, unknown>)[APPROVAL_META_KEY] as
    | Partial<ApprovalSubject>
    | null
    | undefined;
  if (typeof subject?.tool !== 'string' || !('arguments' in subject)) return undefined;
  return { tool: subject.tool, arguments: subject.arguments };
}

/** Whether a remote definition carries fino's "requires approval" hint. */
export function hintsApproval(definition: Pick<McpTool, '_meta'>): boolean {
  return definition._meta?.[REQUIRES_APPROVAL_META_KEY] === true;
}
