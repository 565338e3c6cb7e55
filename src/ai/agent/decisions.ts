import { decisionMismatch } from '../../internal/durable/index.ts';
import { AgentError } from './agent-error.ts';
import { argsHash } from './args-hash.ts';
import { describe } from './state.ts';
import type {
  AgentEvent,
  ClearedCall,
  Decision,
  Decisions,
  PendingCall,
  RunState,
} from './types.ts';

type Checked = { pending: PendingCall; decision: Decision };

/**
 * Applies `decisions` to the open turn of `state`: an approval or a resumed suspension
 * clears the call to run, a rejection answers it with an `isError` result. Every
 * decision is checked first, so a bad one throws and changes nothing.
 *
 * @returns whether anything changed.
 */
export function applyDecisions(state: RunState, decisions: Decisions): boolean {
  if (decisions === null || typeof decisions !== 'object' || Array.isArray(decisions)) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `resume(state, decisions): expected an object mapping toolCallId to a decision, received ${describe(decisions)}`,
    );
  }
  const checked = Object.entries(decisions).map(([id, decision]) => check(state, id, decision));
  const turn = state.turn;
  if (!turn || checked.length === 0) return false;
  for (const { pending, decision } of checked) {
    turn.pending = turn.pending.filter((p) => p !== pending);
    const id = pending.toolCallId;
    if ('reject' in decision) {
      turn.results.push({
        type: 'tool_result',
        toolCallId: id,
        content: `${rejectionPrefix(pending.toolName)}${decision.reject}`,
        isError: true,
      });
    } else {
      const cleared: ClearedCall =
        'approve' in decision
          ? { toolCallId: id, kind: 'approve' }
          : { toolCallId: id, kind: 'resume', resumeValue: decision.resume };
      turn.cleared.push(cleared);
    }
  }
  return true;
}

function check(state: RunState, id: string, decision: unknown): Checked {
  const d = decision as Partial<Record<'approve' | 'reject' | 'resume' | 'argsHash', unknown>>;
  const keys =
    d !== null && typeof d === 'object' ? Object.keys(d).filter((k) => k !== 'argsHash') : [];
  const valid =
    keys.length === 1 &&
    ((keys[0] === 'approve' && d.approve === true) ||
      (keys[0] === 'reject' && typeof d.reject === 'string') ||
      keys[0] === 'resume') &&
    (d.argsHash === undefined || typeof d.argsHash === 'string');
  if (!valid) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `decision for "${id}": expected { approve: true }, { reject: reason } or { resume: value } (optionally with argsHash), received ${describe(decision)}`,
    );
  }
  const pending = state.turn?.pending.find((p) => p.toolCallId === id);
  if (!pending) throw new AgentError('NOT_PENDING', notPendingMessage(state, id));
  const mismatch = decisionMismatch(pending, d as Decision);
  if (mismatch !== undefined) {
    throw new AgentError('DECISION_MISMATCH', `decision for "${id}": the call ${mismatch}`);
  }
  if (argsHash(pending.args) !== pending.argsHash) {
    throw new AgentError(
      'ARGS_MISMATCH',
      `decision for "${id}": the pending call's arguments were changed after it was suspended (they no longer match its argsHash); the approver would decide on arguments that are not the ones that run`,
    );
  }
  const call = state.steps[state.turn!.step].toolCalls.find((c) => c.id === id);
  if (!call || argsHash(call.args) !== pending.argsHash) {
    throw new AgentError(
      'ARGS_MISMATCH',
      `decision for "${id}": the call's arguments no longer match the ones it was suspended with (hash mismatch); the state was changed`,
    );
  }
  if (d.argsHash !== undefined && d.argsHash !== pending.argsHash) {
    throw new AgentError(
      'ARGS_MISMATCH',
      `decision for "${id}": it was made for other arguments (argsHash ${String(d.argsHash)}, the pending call has ${pending.argsHash})`,
    );
  }
  return { pending, decision: d as Decision };
}

function notPendingMessage(state: RunState, id: string): string {
  const pendingIds = state.turn?.pending.map((p) => p.toolCallId) ?? [];
  const waiting =
    pendingIds.length > 0 ? `pending calls: ${pendingIds.join(', ')}` : 'no call is pending';
  const known = state.steps.some((s) => s.toolCalls.some((c) => c.id === id));
  if (!known) return `decision for "${id}": no tool call has this id in this run (${waiting})`;
  const turn = state.turn;
  const running =
    turn !== undefined &&
    state.steps[turn.step].toolCalls.some((c) => c.id === id) &&
    !turn.results.some((r) => r.toolCallId === id);
  return running
    ? `decision for "${id}": the call is not waiting for a decision; it runs when the run resumes (${waiting})`
    : `decision for "${id}": the call is already settled (${waiting})`;
}

/**
 * The results that decisions gave calls which were pending (`before`): the rejections, as
 * the `tool-result` events a stream of the resumed run shows (an approved call's result
 * comes when it runs).
 */
export function decidedResultEvents(state: RunState, before: readonly PendingCall[]): AgentEvent[] {
  const turn = state.turn;
  if (!turn) return [];
  return before.flatMap((pending): AgentEvent[] => {
    const result = turn.results.find((r) => r.toolCallId === pending.toolCallId);
    return result
      ? [{ type: 'tool-result', step: turn.step, toolName: pending.toolName, result }]
      : [];
  });
}

/**
 * How the result of a rejected call begins: the model reads it, and `fino:ai/ui` knows a
 * rejection from a failure by it.
 *
 * @example
 * ```ts
 * import { rejectionPrefix } from 'fino:ai/agent';
 *
 * rejectionPrefix('refund'); // → 'Tool call "refund" was rejected: '
 * ```
 */
export function rejectionPrefix(toolName: string): string {
  return `Tool call "${toolName}" was rejected: `;
}
