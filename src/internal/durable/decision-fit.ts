/**
 * Whether a decision fits the call it decides: the one rule of every durable store (the
 * agent's `resume`, the session store, the workflow store). An approval is answered by
 * approving or rejecting, a suspension by resuming with a value or rejecting. Typed by
 * shape only, so that it knows no module: a pending call is anything with a `kind`.
 */

/** A decision as the stores take it: approve, reject with a reason, or resume with a value. */
export type DecisionShape = { approve: true } | { reject: string } | { resume: unknown };

/** What the rule reads of a pending call. */
export interface DecidedCall {
  kind: 'approval' | 'suspend';
  /** The suspension's message. */
  reason?: string | undefined;
}

/** What a decision does, as the audit trail records it. */
export type DecisionAction = 'approve' | 'reject' | 'resume';

/** The actions that answer a call of `kind`. */
export const fittingActions = (kind: DecidedCall['kind']): readonly DecisionAction[] =>
  kind === 'approval' ? ['approve', 'reject'] : ['resume', 'reject'];

/**
 * Why `decision` does not fit the pending call, or `undefined` when it does (the rule
 * of {@link fittingActions}, in words). Re-exported by `fino:ai/agent`.
 *
 * @example
 * ```ts
 * import { decisionMismatch } from 'fino:ai/agent';
 *
 * decisionMismatch({ kind: 'approval' }, { resume: 42 });
 * // 'waits for an approval; answer { approve: true } or { reject: reason }, not { resume }'
 * ```
 */
export function decisionMismatch(call: DecidedCall, decision: DecisionShape): string | undefined {
  if (call.kind === 'approval' && 'resume' in decision) {
    return 'waits for an approval; answer { approve: true } or { reject: reason }, not { resume }';
  }
  if (call.kind === 'suspend' && 'approve' in decision) {
    return `is suspended ("${call.reason ?? 'Suspended'}"); answer { resume: value } or { reject: reason }, not { approve }`;
  }
  return undefined;
}

/** Whether a value is a decision: `{ approve: true }`, `{ reject: string }` or `{ resume }`. */
export function isDecision(value: unknown): value is DecisionShape {
  if (value === null || typeof value !== 'object') return false;
  const d = value as Record<string, unknown>;
  return (
    ('approve' in d && d.approve === true) ||
    ('reject' in d && typeof d.reject === 'string') ||
    'resume' in d
  );
}

/** The audit action of a decision. */
export const decisionAction = (decision: DecisionShape): DecisionAction =>
  'approve' in decision ? 'approve' : 'reject' in decision ? 'reject' : 'resume';
