/**
 * One model turn of a run: the request (instructions, offered tools, the context window
 * applied), sent plainly or streamed with its deltas emitted, the reply checked, and
 * what the turn reports besides its message (provider-run tool calls, warnings).
 */
import type {
  GenerateRequest,
  GenerateResult,
  Model,
  ModelMessage,
  ModelWarning,
} from '../model/index.ts';
import { abortError, raceAbort } from './abort.ts';
import { AgentError } from './agent-error.ts';
import { applyContext } from './context/index.ts';
import { filterHandoffInput } from './handoff-switch.ts';
import { offeredTools } from './result-budget.ts';
import type { Run } from './run.ts';
import { describe } from './state.ts';
import { planStep, stepRecord } from './step-plan.ts';
import { priceTurn } from './turn-cost.ts';
import type { RunState, StepResult } from './types.ts';

/**
 * Emits `tool-call` and `tool-result` events for the calls the model's provider ran
 * itself during the turn (parts marked with `provider`), in the turn's order.
 */
export function emitProviderCalls(run: Run, step: number, message: ModelMessage): void {
  if (typeof message.content === 'string') return;
  const names = new Map<string, string>();
  for (const part of message.content) {
    if (part.type === 'tool_use' && part.provider !== undefined) {
      names.set(part.id, part.name);
      const call = { id: part.id, name: part.name, args: part.args, provider: part.provider };
      run.emit({ type: 'tool-call', step, call });
    } else if (part.type === 'tool_result' && part.provider !== undefined) {
      const toolName = names.get(part.toolCallId) ?? '';
      run.emit({ type: 'tool-result', step, toolName, result: part });
    }
  }
}

/** Adds a turn's warnings not seen before in the run, emitting each once. */
export function collectWarnings(
  state: RunState,
  run: Run,
  step: number,
  warnings: ModelWarning[] | undefined,
): void {
  if (!Array.isArray(warnings)) return;
  const seen = new Set((state.warnings ?? []).map(warningKey));
  for (const warning of warnings) {
    const key = warningKey(warning);
    if (seen.has(key)) continue;
    seen.add(key);
    state.warnings = [...(state.warnings ?? []), warning];
    run.emit({ type: 'warning', step, warning });
  }
}

/** What makes two warnings the same one. */
function warningKey(warning: ModelWarning): string {
  return JSON.stringify([warning.tool, warning.path, warning.keyword, warning.message]);
}

/** Asks the model for the next turn of the run (streamed when the run streams). */
export async function requestTurn(
  state: RunState,
  run: Run,
  step: number,
): Promise<GenerateResult & Pick<StepResult, 'model' | 'activeTools'>> {
  if (run.signal.aborted) throw abortError(run.signal);
  const plan = await planStep(state, run, step);
  const { model, instructions } = plan;
  const request: GenerateRequest = {
    ...run.config.settings,
    messages: state.messages.slice(),
    signal: run.signal,
  };
  if (plan.toolChoice !== undefined) request.toolChoice = plan.toolChoice;
  if (instructions !== undefined) request.system = instructions;
  const active = (name: string) => plan.activeTools?.includes(name) ?? true;
  const definitions = offeredTools(
    run.config.definitions.filter((d) => active(d.name)),
    state,
  );
  const providerTools = [...run.config.providerTools.values()].filter((t) => active(t.name));
  if (definitions.length > 0) request.tools = definitions;
  if (providerTools.length > 0) request.providerTools = providerTools;
  if (definitions.length === 0 && providerTools.length === 0) delete request.toolChoice;
  await applyContext(state, run, request, step);
  filterHandoffInput(state, run, request);
  // Checked inside the span, before telemetry reads the turn's usage.
  const answer = await run.telemetry.chat(
    request,
    async () => {
      const result = await (run.streaming
        ? streamTurn(request, run, step, model)
        : raceAbort(model.generate(request), run.signal));
      checkTurn(result, model.id);
      return { ...result, usage: priceTurn(result, model, run.config.prices) };
    },
    model.id,
  );
  return { ...answer, ...stepRecord(plan, answer) };
}

/** Streams a turn, emitting its text and reasoning deltas; its result is the stop event's. */
async function streamTurn(
  request: GenerateRequest,
  run: Run,
  step: number,
  model: Model,
): Promise<GenerateResult> {
  const iterator = model.stream(request)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await raceAbort(iterator.next(), run.signal);
      if (next.done) {
        throw new AgentError(
          'INVALID_MODEL_TURN',
          `model "${model.id}" ended its stream without a stop event`,
        );
      }
      const event = next.value;
      if (event.type === 'text-delta') run.emit({ type: 'text-delta', step, text: event.text });
      else if (event.type === 'reasoning-delta') {
        run.emit({ type: 'reasoning-delta', step, text: event.text });
      } else if (event.type === 'stop') return event.result;
      else if (event.type === 'error') throw event.error;
    }
  } finally {
    Promise.resolve(iterator.return?.()).catch(() => {});
  }
}

/** Refuses a turn that is not a `GenerateResult`, or that names one tool call id twice. */
function checkTurn(result: GenerateResult, modelId: string): void {
  if (
    result === null ||
    typeof result !== 'object' ||
    result.message?.role !== 'assistant' ||
    !Array.isArray(result.toolCalls)
  ) {
    throw new AgentError(
      'INVALID_MODEL_TURN',
      `model "${modelId}" returned an unusable turn: expected a GenerateResult with an assistant message and a toolCalls array, received ${describe(result)}`,
    );
  }
  const ids = new Set<string>();
  for (const call of result.toolCalls) {
    if (ids.has(call.id)) {
      throw new AgentError(
        'INVALID_MODEL_TURN',
        `model "${modelId}" returned two tool calls with the id "${call.id}" in one turn`,
      );
    }
    ids.add(call.id);
  }
}
