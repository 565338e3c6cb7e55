import { argsHash } from './args-hash.ts';
import type { PendingCall } from './types.ts';

/** What a pending call is made of; `argsHash` is computed from `args`. */
export interface PendingCallInit {
  kind: PendingCall['kind'];
  toolCallId: string;
  toolName: string;
  args: unknown;
  /** The suspension's message. */
  reason?: string | undefined;
  /** The suspension's payload. */
  payload?: unknown;
}

/**
 * The pending call waiting on a decision about a call of `tool`: its arguments' hash
 * computed, and the tool's `risk` and `sideEffects` copied for the approver. Absent
 * fields stay absent, so the entry is the same JSON whoever builds it — the agent, a
 * workflow's `ctx.call` or an MCP task.
 *
 * @example
 * ```ts
 * import { pendingCall } from 'fino:ai/agent';
 *
 * const call = pendingCall(
 *   { kind: 'approval', toolCallId: 'call_1', toolName: 'refund', args: { amount: 40 } },
 *   { risk: 'high', sideEffects: true },
 * );
 * console.log(call.kind, call.risk, call.argsHash.length); // approval high 64
 * ```
 */
export function pendingCall(
  init: PendingCallInit,
  tool: { risk?: string | undefined; sideEffects?: boolean | undefined } = {},
): PendingCall {
  const call: PendingCall = {
    kind: init.kind,
    toolCallId: init.toolCallId,
    toolName: init.toolName,
    args: init.args,
    argsHash: argsHash(init.args),
  };
  if (init.reason !== undefined) call.reason = init.reason;
  if (init.payload !== undefined) call.payload = init.payload;
  if (tool.risk !== undefined) call.risk = tool.risk;
  if (tool.sideEffects !== undefined) call.sideEffects = tool.sideEffects;
  return call;
}
