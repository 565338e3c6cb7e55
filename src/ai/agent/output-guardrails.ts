/**
 * The output guardrails of a run: run on its final answer — the validated `output` with
 * an output schema, else the last turn's text — before the result is returned; a trip
 * stops the run with a `GuardrailTrippedError` (decision 195).
 */
import { runGuardrails, stopOnTrip } from './guardrail-run.ts';
import type { Run } from './run.ts';
import type { RunState } from './types.ts';

/** Runs the agent's output guardrails on the run's final answer; throws on a trip. */
export async function checkOutputGuardrails(state: RunState, run: Run): Promise<void> {
  const guardrails = run.config.outputGuardrails;
  if (guardrails.length === 0) return;
  const answer = state.output !== undefined ? state.output : (state.steps.at(-1)?.text ?? '');
  const site = { kind: 'output' as const, step: Math.max(0, state.steps.length - 1) };
  const trip = await runGuardrails(guardrails, answer, site, state, run);
  if (trip) await stopOnTrip(trip, site, state, run);
}
