/**
 * Tool annotations: fino's declared behaviour (`sideEffects`, `risk`, `idempotent`,
 * `effects`, `title`) as MCP hints, and MCP hints back as fino declarations.
 * See docs/decisions/041 and 092.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/server';

/** The declarations a tool makes about itself, as far as MCP can carry them. */
export interface ToolBehaviour {
  title?: string;
  risk?: string;
  sideEffects?: boolean;
  idempotent?: boolean;
  effects?: readonly string[];
}

/** Effect families that reach outside the application: they make a tool open-world. */
const OPEN_WORLD_FAMILIES = new Set(['network', 'http', 'web', 'email', 'external']);
/** Effect families that stay within the application's own resources. */
const CLOSED_WORLD_FAMILIES = new Set(['fs', 'db', 'memory', 'process']);

/**
 * MCP annotations for a fino tool. Only what the tool declares is claimed, and an
 * unknown declaration claims the worst: an undeclared `sideEffects` gives no
 * `readOnlyHint`; `risk` `'low'`/`'medium'` → `destructiveHint: false`, `'high'`,
 * `'destructive'` and labels of your own → `true`; `effects` give `openWorldHint` only
 * when every label's family (the part before `:`) is known.
 */
export function toAnnotations(tool: ToolBehaviour): ToolAnnotations | undefined {
  const annotations: ToolAnnotations = {};
  if (tool.title !== undefined) annotations.title = tool.title;
  if (tool.sideEffects === false) annotations.readOnlyHint = true;
  if (tool.sideEffects === true) annotations.readOnlyHint = false;
  if (tool.risk !== undefined) {
    annotations.destructiveHint = tool.risk !== 'low' && tool.risk !== 'medium';
  }
  if (tool.idempotent !== undefined) annotations.idempotentHint = tool.idempotent;
  const openWorld = openWorldHint(tool.effects);
  if (openWorld !== undefined) annotations.openWorldHint = openWorld;
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

/**
 * `true` when an effect reaches outside (`'network'`, `'http:post'`…), `false` when
 * every effect is known to stay inside (`'fs:write'`, `'db'`…), else unknown.
 */
function openWorldHint(effects: readonly string[] | undefined): boolean | undefined {
  if (effects === undefined || effects.length === 0) return undefined;
  const families = effects.map((effect) => effect.split(':', 1)[0] ?? effect);
  if (families.some((family) => OPEN_WORLD_FAMILIES.has(family))) return true;
  return families.every((family) => CLOSED_WORLD_FAMILIES.has(family)) ? false : undefined;
}

/** What a remote tool's annotations say, as fino declarations. */
export interface RemoteBehaviour {
  title?: string;
  risk?: 'destructive';
  sideEffects?: boolean;
  idempotent?: boolean;
  /** Destructive and not read-only: a human should confirm each call. */
  requiresApproval: boolean;
}

/**
 * Reads fino declarations back from a remote tool's annotations: `readOnlyHint` →
 * `sideEffects` (`true` → `false`, `false` → `true`), `destructiveHint: true` → `risk:
 * 'destructive'`, `idempotentHint` → `idempotent`. Hints that are not booleans claim nothing.
 */
export function fromAnnotations(annotations: ToolAnnotations | undefined): RemoteBehaviour {
  const readOnly = annotations?.readOnlyHint;
  const destructive = annotations?.destructiveHint === true;
  const behaviour: RemoteBehaviour = { requiresApproval: destructive && readOnly !== true };
  if (typeof annotations?.title === 'string') behaviour.title = annotations.title;
  if (destructive) behaviour.risk = 'destructive';
  if (typeof readOnly === 'boolean') behaviour.sideEffects = !readOnly;
  const idempotent = annotations?.idempotentHint;
  if (typeof idempotent === 'boolean') behaviour.idempotent = idempotent;
  return behaviour;
}
