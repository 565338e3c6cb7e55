/**
 * Tool-call guardrails (decision 198), after the OpenAI Agents SDK's tool guardrails:
 * `toolGuardrails.before` run on a call's arguments just before the tool would run,
 * `toolGuardrails.after` on its result. A trip with a `result` refuses the call (before:
 * the model gets `result` as an error result, the tool never runs) or replaces its result
 * (after); a trip without one stops the run. A result waiting for its after-guardrails
 * is held in the state and checkpointed, so a process killed meanwhile never runs the
 * tool again.
 */
import type { ToolCall } from '../model/index.ts';
import {
  callOf,
  type GuardrailSite,
  runGuardrails,
  stopOnTrip,
  type Trip,
} from './guardrail-run.ts';
import { recordTrip, tidyGuardrails } from './guardrail-state.ts';
import type { Run } from './run.ts';
import type { CallOutcome } from './settle-call.ts';
import type { RunState, ToolResultPart } from './types.ts';

/** The `toolGuardrails` option: guardrails before and after every tool call the agent runs. */
export interface ToolGuardrails<G> {
  before?: readonly G[];
  after?: readonly G[];
}

/** Runs `invoke` (the tool) between the agent's before- and after-guardrails. */
export async function guardTool(
  call: ToolCall,
  state: RunState,
  run: Run,
  invoke: () => Promise<CallOutcome>,
): Promise<CallOutcome> {
  const { before, after } = run.config.toolGuardrails;
  const step = state.turn!.step;
  const checked = { toolName: call.name, toolCallId: call.id, args: call.args };
  const held = heldResult(state, step, call.id);
  if (!held) {
    const site: GuardrailSite = { kind: 'tool-before', step, toolCallId: call.id };
    const trip = await runGuardrails(before, checked, site, state, run);
    if (trip)
      return {
        result:
          settleTrip(trip, site, state, call, true) ?? (await stopOnTrip(trip, site, state, run)),
      };
  }
  const outcome = held ? { result: held } : await invoke();
  if (!('result' in outcome) || after.length === 0) return outcome;
  if (!held) await hold(state, run, step, outcome.result);
  const site: GuardrailSite = { kind: 'tool-after', step, toolCallId: call.id };
  const trip = await runGuardrails(after, { ...checked, result: outcome.result }, site, state, run);
  if (trip) {
    const replaced = settleTrip(trip, site, state, call, false);
    if (!replaced) await stopOnTrip(trip, site, state, run);
    outcome.result = replaced!;
  }
  release(state, step, call.id);
  return outcome;
}

/**
 * A trip that carries a `result`: recorded, and turned into what the model sees —
 * an error result refusing the call (before) or the replaced result (after).
 * `undefined` for a trip without one (it stops the run).
 */
function settleTrip(
  trip: Trip,
  site: GuardrailSite,
  state: RunState,
  call: ToolCall,
  refuses: boolean,
): ToolResultPart | undefined {
  const { result, output } = trip.verdict;
  if (result === undefined) return undefined;
  recordTrip(state, {
    name: trip.guardrail.name,
    kind: site.kind,
    step: site.step,
    output,
    ...callOf(site),
  });
  const part: ToolResultPart = { type: 'tool_result', toolCallId: call.id, content: result };
  if (refuses) part.isError = true;
  return part;
}

function heldResult(state: RunState, step: number, toolCallId: string): ToolResultPart | undefined {
  return state.guardrails?.heldResults?.find(
    (h) => h.step === step && h.result.toolCallId === toolCallId,
  )?.result;
}

/** Keeps a tool's result in the state, checkpointed, while its after-guardrails run. */
async function hold(
  state: RunState,
  run: Run,
  step: number,
  result: ToolResultPart,
): Promise<void> {
  const held = state.guardrails?.heldResults ?? [];
  state.guardrails = { ...state.guardrails, heldResults: [...held, { step, result }] };
  await run.checkpoint(state, 'tool-outcome');
}

function release(state: RunState, step: number, toolCallId: string): void {
  const g = state.guardrails;
  if (!g?.heldResults) return;
  g.heldResults = g.heldResults.filter(
    (h) => !(h.step === step && h.result.toolCallId === toolCallId),
  );
  tidyGuardrails(state);
}
