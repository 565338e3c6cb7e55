/**
 * Tool annotations: fino's declared behaviour (`sideEffects`, `risk`, `title`) as MCP
 * hints, and MCP hints back as fino declarations. See docs/decisions/041.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/server';

/** The declarations a tool makes about itself, as far as MCP can carry them. */
export interface ToolBehaviour {
  title?: string;
  risk?: string;
  sideEffects?: boolean;
}

/**
 * MCP annotations for a fino tool. Only what the tool declares is claimed: an undeclared
 * `sideEffects` gives no `readOnlyHint`, so the client assumes the worst.
 */
export function toAnnotations(tool: ToolBehaviour): ToolAnnotations | undefined {
  const annotations: ToolAnnotations = {};
  if (tool.title !== undefined) annotations.title = tool.title;
  if (tool.sideEffects === false) annotations.readOnlyHint = true;
  if (tool.sideEffects === true) annotations.readOnlyHint = false;
  if (tool.risk === 'destructive') annotations.destructiveHint = true;
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

/** What a remote tool's annotations say, as fino declarations. */
export interface RemoteBehaviour {
  title?: string;
  risk?: 'destructive';
  sideEffects?: false;
  /** Destructive and not read-only: a human should confirm each call. */
  requiresApproval: boolean;
}

/** Reads fino declarations back from a remote tool's annotations. */
export function fromAnnotations(annotations: ToolAnnotations | undefined): RemoteBehaviour {
  const readOnly = annotations?.readOnlyHint === true;
  const destructive = annotations?.destructiveHint === true;
  const behaviour: RemoteBehaviour = { requiresApproval: destructive && !readOnly };
  if (typeof annotations?.title === 'string') behaviour.title = annotations.title;
  if (destructive) behaviour.risk = 'destructive';
  if (readOnly) behaviour.sideEffects = false;
  return behaviour;
}
