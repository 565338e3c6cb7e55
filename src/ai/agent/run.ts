import { unknownKeyMessage } from '../../internal/known-keys.ts';
import type {
  GenerateRequest,
  GenerateResult,
  ModelMessage,
  ModelWarning,
  ToolCall,
} from '../model/index.ts';
import { abortError, raceAbort } from './abort.ts';
import { AgentError } from './agent-error.ts';
import { type Budget, enforceBudget, runBudget, withCost } from './budget.ts';
import { applyContext } from './context/step.ts';
import { forEachLimited } from './for-each-limited.ts';
import { checkHooks, withHooks } from './hooks.ts';
import type { AgentConfig } from './options.ts';
import { AgentOutputError, checkOutput, repairMessage } from './output.ts';
import { offeredTools } from './result-budget.ts';
import { settleCall } from './settle-call.ts';
import { addUsage, describe } from './state.ts';
import { signState } from './state-signature.ts';
import { type RunTelemetry, startRunTelemetry } from './telemetry.ts';
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
export async function withRun<T>(
  config: AgentConfig,
  options: AgentRunOptions,
  events: { streaming: boolean; emit(event: AgentEvent): void },
  work: (run: Run) => Promise<T>,
): Promise<T> {
  const { signal } = checkRunOptions(options);
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

/** Every run option, hooks included, so a misspelt one (`onStepStrat`) is refused. */
const RUN_OPTIONS: Record<keyof AgentRunOptions, true> = {
  signal: true,
  runId: true,
  onCheckpoint: true,
  checkpointCopy: true,
  onStepStart: true,
  onStepFinish: true,
  onToolCall: true,
  onToolResult: true,
  onProgress: true,
  history: true,
  summary: true,
  budget: true,
};

function checkRunOptions(options: AgentRunOptions): AgentRunOptions {
  if (options === null || typeof options !== 'object') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `run options: expected an object, received ${describe(options)}`,
    );
  }
  const unknown = unknownKeyMessage('run options', options, Object.keys(RUN_OPTIONS));
  if (unknown) throw new AgentError('INVALID_ARGUMENT', unknown);
  const signal = options.signal as Partial<AbortSignal> | undefined;
  if (
    signal !== undefined &&
    (signal === null ||
      typeof signal.aborted !== 'boolean' ||
      typeof signal.addEventListener !== 'function')
  ) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `run options.signal: expected an AbortSignal, received ${describe(options.signal)}`,
    );
  }
  if (options.onCheckpoint !== undefined && typeof options.onCheckpoint !== 'function') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `run options.onCheckpoint: expected a function, received ${describe(options.onCheckpoint)}`,
    );
  }
  if (options.checkpointCopy !== undefined && typeof options.checkpointCopy !== 'boolean') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `run options.checkpointCopy: expected a boolean, received ${describe(options.checkpointCopy)}`,
    );
  }
  if (options.summary !== undefined && typeof options.summary !== 'string') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `run options.summary: expected a string, received ${describe(options.summary)}`,
    );
  }
  checkHooks(options);
  return options;
}

/**
 * The loop: settles the open turn's tool calls, closes the turn, checks the stop
 * conditions, asks the model for the next turn, and so on, until the model answers
 * without tool calls, a stop condition holds, calls are left pending, or (in `one-step`
 * mode) one step is complete.
 */
export async function continueRun(state: RunState, run: Run, mode: RunMode): Promise<StepOutcome> {
  run.active = state;
  run.telemetry.attach(state);
  let stepped = false;
  for (;;) {
    // Before each model request, and before the tool calls of a turn that spent the budget.
    enforceBudget(state, run.budget, run.config.stateSecret);
    if (state.turn) {
      await settleTurn(state, run);
      if (state.turn.pending.length > 0) return suspended(state);
      const index = state.turn.step;
      closeTurn(state);
      await run.checkpoint(state, 'turn-closed');
      run.emit({ type: 'step-finish', step: index, result: state.steps[index] });
      stepped = true;
    }
    if (isFinished(state, run.config)) return done(state);
    if (stepped && mode === 'one-step') return { status: 'running', state };
    const step = state.steps.length;
    run.emit({ type: 'step-start', step });
    const turn = await requestTurn(state, run, step);
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
    });
    if (turn.toolCalls.length === 0) {
      const repair = run.config.output ? await settleOutput(state, run.config, turn) : undefined;
      await run.checkpoint(state, repair === undefined ? 'final' : 'model-turn');
      run.emit({ type: 'step-finish', step, result: state.steps[step] });
      if (repair === undefined) return done(state);
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

/**
 * Emits `tool-call` and `tool-result` events for the calls the model's provider ran
 * itself during the turn (parts marked with `provider`), in the turn's order.
 */
function emitProviderCalls(run: Run, step: number, message: ModelMessage): void {
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
function collectWarnings(
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

function warningKey(warning: ModelWarning): string {
  return JSON.stringify([warning.tool, warning.path, warning.keyword, warning.message]);
}

async function requestTurn(state: RunState, run: Run, step: number): Promise<GenerateResult> {
  if (run.signal.aborted) throw abortError(run.signal);
  const { model, instructions, settings } = run.config;
  const request: GenerateRequest = {
    ...settings,
    messages: state.messages.slice(),
    signal: run.signal,
  };
  if (instructions !== undefined) request.system = instructions;
  const definitions = offeredTools(run.config.definitions, state);
  const providerTools = [...run.config.providerTools.values()];
  if (definitions.length > 0) request.tools = definitions;
  if (providerTools.length > 0) request.providerTools = providerTools;
  if (definitions.length === 0 && providerTools.length === 0) delete request.toolChoice;
  await applyContext(state, run, request, step);
  // Checked inside the span, before telemetry reads the turn's usage.
  return run.telemetry.chat(request, async () => {
    const result = await (run.streaming
      ? streamTurn(request, run, step)
      : raceAbort(model.generate(request), run.signal));
    checkTurn(result, model.id);
    return { ...result, usage: withCost(result.usage, model, run.config.prices) };
  });
}

async function streamTurn(
  request: GenerateRequest,
  run: Run,
  step: number,
): Promise<GenerateResult> {
  const iterator = run.config.model.stream(request)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await raceAbort(iterator.next(), run.signal);
      if (next.done) {
        throw new AgentError(
          'INVALID_MODEL_TURN',
          `model "${run.config.model.id}" ended its stream without a stop event`,
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

function done(state: RunState): DoneResult {
  return {
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

function suspended(state: RunState): SuspendedResult {
  return { status: 'suspended', pending: state.turn!.pending.slice(), state };
}
