import type { RunState } from './types.ts';

/** Appends the open turn's results, in call order, as one user message, and closes the turn. */
export function closeTurn(state: RunState): void {
  const turn = state.turn!;
  const step = state.steps[turn.step];
  const byId = new Map(turn.results.map((r) => [r.toolCallId, r]));
  step.toolResults = step.toolCalls.map((call) => byId.get(call.id)!);
  state.messages.push({ role: 'user', content: step.toolResults.slice() });
  delete state.turn;
}

/**
 * Closes the open turn of an aborted run: every call without a result — running,
 * pending or cleared to run — is answered with an "aborted" `isError` result, so each
 * `tool_use` has exactly one `tool_result` and any provider accepts the history.
 */
export function closeAbortedTurn(state: RunState): void {
  const turn = state.turn;
  if (!turn) return;
  const answered = new Set(turn.results.map((r) => r.toolCallId));
  for (const call of state.steps[turn.step].toolCalls) {
    if (answered.has(call.id)) continue;
    turn.results.push({
      type: 'tool_result',
      toolCallId: call.id,
      content: `Tool call "${call.name}" was aborted: the run was stopped before it finished.`,
      isError: true,
    });
  }
  turn.pending = [];
  turn.cleared = [];
  closeTurn(state);
}
