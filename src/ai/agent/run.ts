/**
 * One agent run: `withRun` builds it from the caller's options (signal, checkpoints,
 * hooks, budget, spans) and ends it, `continueRun` is the loop of model turns and tool
 * calls until the run is done, suspended or one step further.
 */
import type { GenerateResult, ToolCall } from '../model/index.ts';
import { abortError, raceAbort } from './abort.ts';
import { type Budget, enforceBudget, runBudget } from './budget.ts';
import { forEachLimited } from './for-each-limited.ts';
import { activeConfig } from './handoff-graph.ts';
import { takeHandoff } from './handoff-switch.ts';
import { withHooks } from './hooks.ts';
import { guardedTurn } from './input-guardrails.ts';
import { collectWarnings, emitProviderCalls } from './model-turn.ts';
import type { AgentConfig } from './options.ts';
import { AgentOutputError, checkOutput, repairMessage } from './output.ts';
import { checkOutputGuardrails } from './output-guardrails.ts';
import { type EventSink, finishEvent, withOnEvent } from './run-events.ts';
import { checkRunOptions } from './run-options.ts';
import { settleCall } from './settle-call.ts';
import { addUsage } from './state.ts';
import { signState } from './state-signature.ts';
import { answeredBy } from './step-plan.ts';
import { type RunTelemetry, startRunTelemetry } from './telemetry/index.ts';
import { closeAbortedTurn, closeTurn } from './turn.ts';
import type {
  AgentEvent,
  AgentRunOptions,
  CheckpointReason,
  DoneResult,
  RunState,
  StepOutcome,
  SuspendedResult,
} from './types.ts';

/** One run in progress: the agent's configuration and this run's signal, events and checkpoints. */
export interface Run {
  config: AgentConfig;
  /** Aborted when the caller's signal aborts or the run fails: tools and the model see it. */
  signal: AbortSignal;
  /** Whether model turns are streamed (and their text deltas emitted). */
  streaming: boolean;
  emit(event: AgentEvent): void;
  /**
   * Calls `onCheckpoint` with a copy of `state` (or the state itself, with
   * `checkpointCopy: false`) and why, one call at a time, in order.
   */
  checkpoint(state: RunState, reason: CheckpointReason): Promise<void>;
  /** The state the run works on, once known: an aborted run pairs its open calls in it. */
  active?: RunState;
  /** The run's spans (a no-op without OpenTelemetry). */
  telemetry: RunTelemetry;
  /** The run option `summary`: taken into a fresh state by the first context step. */
  summary?: string;
  /** The run's limits: the agent's `budget` with the run's over it. */
  budget: Budget | undefined;
}

/** What `continueRun` is asked to do: run until done or suspended, or take one step. */
export type RunMode = 'until-paused' | 'one-step';

/**
 * Runs `work` with a {@link Run} built from the caller's options; whatever way it ends,
 * it stops listening to the caller's signal, and when it fails it aborts the run's
 * signal so that tools still running are cancelled.
 */
export async function withRun<T extends StepOutcome>(
  config: AgentConfig,
  options: AgentRunOptions,
  sink: EventSink,
  work: (run: Run) => Promise<T>,
): Promise<T> {
  const { signal } = checkRunOptions(options);
  const events = withOnEvent(sink, options);
  const budget = runBudget(config, options.budget);
  const controller = new AbortController();
  const forward = () => controller.abort(signal!.reason);
  if (signal?.aborted) throw abortError(signal);
  signal?.addEventListener('abort', forward, { once: true });
  let chain: Promise<void> = Promise.resolve();
  let hookFailure: { error: unknown } | undefined;
  const telemetry = await startRunTelemetry(config.telemetry, config.name, config.model);
  const emit = (event: AgentEvent) => {
    events.emit(event);
    telemetry.observe(event);
  };
  const hooked = withHooks(emit, options, (error) => {
    hookFailure ??= { error };
    controller.abort(error);
  });
  const run: Run = {
    config,
    signal: controller.signal,
    streaming: events.streaming,
    telemetry,
    budget,
    emit: hooked.emit,
    summary: options.summary,
    checkpoint(state, reason) {
      if (!options.onCheckpoint) return chain;
      chain = chain.then(() =>
        options.onCheckpoint!(checkpointed(state, options, config), { reason }),
      );
      return chain;
    },
  };
  try {
    const result = await work(run);
    signResult(result, config);
    await hooked.settled();
    const finish = finishEvent(result);
    if (finish) events.emit(finish);
    telemetry.end(result as { status: string });
    return result;
  } catch (caught) {
    controller.abort(caught);
    const error = hookFailure ? hookFailure.error : caught;
    if (signal?.aborted && !hookFailure && run.active) {
      await pairAborted(run.active, error, chain, options, config);
    }
    telemetry.end({ error });
    throw error;
  } finally {
    signal?.removeEventListener('abort', forward);
  }
}

/**
 * After the caller aborted: answers every call of the open turn that has no result with
 * an "aborted" `isError` result and closes the turn, so the history is valid for any
 * provider; checkpoints that state (after the checkpoints already under way) and
 * attaches it to the error as `state`. A failing last checkpoint does not replace the
 * abort: the error's `state` is the one to keep.
 */
async function pairAborted(
  state: RunState,
  error: unknown,
  chain: Promise<void>,
  options: AgentRunOptions,
  config: AgentConfig,
): Promise<void> {
  closeAbortedTurn(state);
  await chain.catch(() => {});
  try {
    await options.onCheckpoint?.(checkpointed(state, options, config), { reason: 'aborted' });
  } catch {
    // the abort is what the caller sees; `error.state` carries the paired state
  }
  if (error !== null && typeof error === 'object') {
    try {
      Object.defineProperty(error, 'state', {
        value: signed(structuredClone(state), config),
        configurable: true,
        writable: true,
      });
    } catch {
      // a frozen abort reason keeps its shape
    }
  }
}

/**
 * The state `onCheckpoint` is given: a copy, unless the caller reads it at once
 * (`checkpointCopy: false`); signed with the agent's `stateSecret`.
 */
const checkpointed = (state: RunState, options: AgentRunOptions, config: AgentConfig): RunState =>
  signed(options.checkpointCopy === false ? state : structuredClone(state), config);

/** `state` signed with the agent's `stateSecret`, when it has one (decision 133). */
const signed = (state: RunState, config: AgentConfig): RunState =>
  config.stateSecret === undefined ? state : signState(state, config.stateSecret);

/** Signs the state of a run's result (done, suspended or running), when the agent has a secret. */
function signResult(result: unknown, config: AgentConfig): void {
  const state = (result as { state?: RunState } | null)?.state;
  if (state !== undefined) signed(state, config);
}

/**
 * The loop: settles the open turn's tool calls, closes the turn, checks the stop
 * conditions, asks the model for the next turn, and so on, until the model answers
 * without tool calls, a stop condition holds, calls are left pending, or (in `one-step`
 * mode) one step is complete.
 */
export async function continueRun(state: RunState, run: Run, mode: RunMode): Promise<StepOutcome> {
  run.active = state;
  run.config = activeConfig(state, run.config);
  run.telemetry.attach(state);
  let stepped = false;
  for (;;) {
    // Before each model request, and before the tool calls of a turn that spent the budget.
    enforceBudget(state, run.budget, run.config.stateSecret);
    if (state.turn) {
      await settleTurn(state, run);
      if (state.turn.pending.length > 0) return suspended(state, run.config.name);
      const index = state.turn.step;
      closeTurn(state);
      takeHandoff(state, run, index);
      await run.checkpoint(state, 'turn-closed');
      run.emit({ type: 'step-finish', step: index, result: state.steps[index] });
      stepped = true;
    }
    if (isFinished(state, run.config)) return done(state, run);
    if (stepped && mode === 'one-step') return { status: 'running', state };
    const step = state.steps.length;
    run.emit({ type: 'step-start', step });
    const turn = await guardedTurn(state, run, step);
    collectWarnings(state, run, step, turn.warnings);
    state.messages.push(turn.message);
    emitProviderCalls(run, step, turn.message);
    addUsage(state.usage, turn.usage);
    state.steps.push({
      step,
      text: turn.text,
      toolCalls: turn.toolCalls,
      toolResults: [],
      stopReason: turn.stopReason,
      usage: turn.usage,
      ...answeredBy(turn),
    });
    if (turn.toolCalls.length === 0) {
      const repair = run.config.output ? await settleOutput(state, run.config, turn) : undefined;
      await run.checkpoint(state, repair === undefined ? 'final' : 'model-turn');
      run.emit({ type: 'step-finish', step, result: state.steps[step] });
      if (repair === undefined) return done(state, run);
      continue;
    }
    state.turn = { step, results: [], pending: [], cleared: [] };
    await run.checkpoint(state, 'model-turn');
    for (const call of turn.toolCalls) run.emit({ type: 'tool-call', step, call });
  }
}

/**
 * Checks a final answer against the output schema: a valid one becomes `state.output`;
 * the first invalid one gets a repair message (returned, and appended to the
 * conversation); a second throws an {@link AgentOutputError}.
 */
async function settleOutput(
  state: RunState,
  config: AgentConfig,
  turn: GenerateResult,
): Promise<string | undefined> {
  const checked = await checkOutput(config, turn);
  if (checked.ok) {
    state.output = checked.value;
    return undefined;
  }
  if (state.outputRepaired) throw new AgentOutputError(checked.issues, turn.text);
  state.outputRepaired = true;
  const message = repairMessage(checked.issues);
  state.messages.push({ role: 'user', content: message });
  return message;
}

/** Settles every call of the open turn that has neither a result nor a pending entry. */
async function settleTurn(state: RunState, run: Run): Promise<void> {
  const turn = state.turn!;
  const calls: ToolCall[] = state.steps[turn.step].toolCalls;
  const settled = new Set<string>();
  for (const r of turn.results) settled.add(r.toolCallId);
  for (const p of turn.pending) settled.add(p.toolCallId);
  const open = calls.filter((call) => !settled.has(call.id));
  const work = forEachLimited(open, run.config.toolConcurrency, async (call) => {
    const cleared = turn.cleared.find((c) => c.toolCallId === call.id);
    const outcome = await settleCall(call, cleared, state, run);
    if (run.signal.aborted) return;
    if (cleared) turn.cleared = turn.cleared.filter((c) => c !== cleared);
    if ('result' in outcome) {
      turn.results.push(outcome.result);
      run.emit({
        type: 'tool-result',
        step: turn.step,
        toolName: call.name,
        result: outcome.result,
      });
    } else {
      turn.pending.push(outcome.pending);
      run.emit({ type: 'tool-pending', step: turn.step, pending: outcome.pending });
    }
    await run.checkpoint(state, 'tool-outcome');
  });
  await raceAbort(work, run.signal);
}

/**
 * A run is finished when the model's last turn had no tool calls, or when the last
 * message holds a step's tool results and a stop condition holds.
 */
function isFinished(state: RunState, config: AgentConfig): boolean {
  const last = state.messages.at(-1);
  if (last?.role === 'assistant') return true;
  const answersTools =
    last?.role === 'user' && Array.isArray(last.content) && last.content[0]?.type === 'tool_result';
  return answersTools && config.stopWhen.some((stop) => stop({ steps: state.steps }));
}

async function done(state: RunState, run: Run): Promise<DoneResult> {
  await checkOutputGuardrails(state, run);
  return {
    agent: run.config.name,
    status: 'done',
    text: state.steps.at(-1)?.text ?? '',
    output: state.output,
    warnings: state.warnings ?? [],
    messages: state.messages,
    steps: state.steps,
    usage: state.usage,
    state,
  };
}

function suspended(state: RunState, agent: string): SuspendedResult {
  return { status: 'suspended', pending: state.turn!.pending.slice(), state, agent };
}
