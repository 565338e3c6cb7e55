/**
 * The first model turn of a run under its input guardrails (decisions 195, 197): those
 * with `runInParallel: false` run before the request; the others at the same time as it.
 * The answer is held in the state (and checkpointed) until they pass, so a process
 * killed mid-guardrail resumes with the same answer, never asking (and paying) again;
 * when one trips the answer is discarded, its usage kept.
 */
import type { GenerateResult, ModelMessage } from '../model/index.ts';
import { runGuardrails, stopOnTrip, type Trip } from './guardrail-run.ts';
import { tidyGuardrails } from './guardrail-state.ts';
import { requestTurn } from './model-turn.ts';
import type { Run } from './run.ts';
import { addUsage } from './state.ts';
import type { RunState } from './types.ts';

/** The model's turn for `step`: checked by the input guardrails on the run's first step. */
export async function guardedTurn(
  state: RunState,
  run: Run,
  step: number,
): Promise<GenerateResult> {
  const guardrails = run.config.inputGuardrails;
  if (guardrails.length === 0 || state.steps.length > 0) return requestTurn(state, run, step);
  const input = userInput(state.messages);
  const site = { kind: 'input' as const, step };
  const before = guardrails.filter((g) => !g.runInParallel);
  const blocking = await runGuardrails(before, input, site, state, run);
  if (blocking) return stopOnTrip(blocking, site, state, run);
  const alongside = guardrails.filter((g) => g.runInParallel);
  const checks = runGuardrails(alongside, input, site, state, run).then(
    (trip) => ({ trip }),
    (error: unknown) => ({ error }),
  );
  const answer = heldOrRequested(state, run, step).then(
    (turn) => ({ turn }),
    (error: unknown) => ({ error }),
  );
  const [checked, answered] = await Promise.all([checks, answer]);
  if ('error' in checked) throw checked.error;
  if (checked.trip)
    return discard(checked.trip, 'turn' in answered ? answered.turn : undefined, state, run);
  if ('error' in answered) throw answered.error;
  delete state.guardrails?.heldTurn;
  tidyGuardrails(state);
  return answered.turn;
}

/** The turn held by an earlier process, or a new one, held and checkpointed before it is used. */
async function heldOrRequested(state: RunState, run: Run, step: number): Promise<GenerateResult> {
  const held = state.guardrails?.heldTurn;
  if (held) return held;
  const turn = await requestTurn(state, run, step);
  state.guardrails = { ...state.guardrails, heldTurn: turn };
  await run.checkpoint(state, 'model-turn');
  return turn;
}

/** A trip while the turn was asked for: the answer is dropped, its usage counted, the run stopped. */
async function discard(
  trip: Trip,
  turn: GenerateResult | undefined,
  state: RunState,
  run: Run,
): Promise<never> {
  if (turn) addUsage(state.usage, turn.usage);
  delete state.guardrails?.heldTurn;
  return stopOnTrip(trip, { kind: 'input', step: state.steps.length }, state, run);
}

/** The user's input: the text of the conversation's last user message. */
function userInput(messages: readonly ModelMessage[]): string {
  const last = messages.findLast((m) => m.role === 'user');
  if (last === undefined) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}
