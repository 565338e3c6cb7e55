import type { GenerateRequest, ModelWarning } from '../../model/index.ts';
import { AgentError } from '../agent-error.ts';
import { READ_RESULT, readResultDefinition } from '../result-budget.ts';
import type { Run } from '../run.ts';
import type { RunState } from '../types.ts';
import type { StrategyInput } from './strategy.ts';
import type { ContextReport, ContextSummary } from './types.ts';
import { ContextWindow } from './window.ts';

/** What the last request of a run was estimated at, to compare with what the provider counted. */
const estimates = new WeakMap<RunState, { step: number; tokens: number }>();

/**
 * The context step, right before a model request: renders the run's summary (at the end
 * of the system prompt, leaving out the messages it stands for), and with the agent's
 * `context` option runs its strategies in order until the request fits the budget.
 * Changes only `request`: `state.messages` keeps everything. A new summary is stored in
 * `state.context` and checkpointed (`context`) before the request. What was left out is
 * reported as a `context` event and a warning. A request that cannot fit even with only
 * what every request needs fails with `CONTEXT_OVERFLOW` (unless a provider-side strategy
 * lets the provider trim it).
 */
export async function applyContext(
  state: RunState,
  run: Run,
  request: GenerateRequest,
  step: number,
): Promise<void> {
  const config = run.config.context;
  if (run.summary !== undefined && state.steps.length === 0 && !state.context?.summary) {
    state.context = { ...state.context, summary: { text: run.summary, through: 0 } };
  }
  const first = state.context?.summary;
  if (!config && !first) return;
  const instructions = request.system;
  const tools = config?.strategies.some((s) => s.name === 'clearToolResults')
    ? [...(request.tools ?? []).filter((t) => t.name !== READ_RESULT), readResultDefinition]
    : request.tools;
  const measure = config?.measure;
  const fixedFor = (summary: ContextSummary | undefined) =>
    measure ? measure.fixed(systemWith(instructions, summary), tools) : 0;
  const budget = config ? calibrated(config.maxTokens, state) : Infinity;
  const window = new ContextWindow(
    state.messages,
    budget,
    fixedFor(undefined),
    measure ? measure.message : () => 0,
  );
  const before = window.tokens;
  let summary: ContextSummary | undefined;
  let summarized: ContextSummary | undefined;
  const notes: { message: string; cause?: unknown }[] = [];
  const providerOptions: Record<string, Record<string, unknown>> = {};
  const input: StrategyInput = {
    window,
    state,
    run,
    step,
    summary: undefined,
    setSummary(next) {
      for (let i = summary?.through ?? 0; i < next.through; i++) window.drop(i);
      window.setFixed(fixedFor(next));
      summary = next;
      input.summary = next;
      if (next !== first) summarized = next;
    },
    setProviderOption(provider, fields) {
      providerOptions[provider] = { ...providerOptions[provider], ...fields };
    },
    note(message, cause) {
      notes.push({ message, cause });
    },
  };
  if (first) input.setSummary(first);
  for (const { behaviour } of config?.strategies ?? []) {
    if (behaviour.providerSide || !window.fits()) await behaviour.apply(input);
  }
  // Kept even when the request still does not fit: the summary was paid for.
  if (summarized) {
    state.context = { ...state.context, summary: summarized };
    await run.checkpoint(state, 'context');
  }
  if (config && !window.fits() && !config.providerSide) {
    const why = notes.map((n) => ` (${n.message})`).join('');
    throw new AgentError(
      'CONTEXT_OVERFLOW',
      `context: the request needs about ${window.tokens} input tokens, more than context.maxTokens allows (${budget}), even after ${config.strategies.map((s) => s.name).join(', ')}; every request sends the system prompt, the tool definitions, the latest user message and the latest model turn with its tool results${why}`,
      notes[0]?.cause === undefined ? undefined : { cause: notes[0].cause },
    );
  }
  request.messages = window.messages();
  if (summary) request.system = systemWith(instructions, summary);
  if (window.cleared > 0 && !request.tools?.some((t) => t.name === READ_RESULT)) {
    request.tools = [...(request.tools ?? []), readResultDefinition];
  }
  for (const [provider, fields] of Object.entries(providerOptions)) {
    request.providerOptions = {
      ...request.providerOptions,
      [provider]: { ...fields, ...request.providerOptions?.[provider as 'openai'] },
    };
  }
  if (config) estimates.set(state, { step, tokens: window.tokens });
  const report: ContextReport = {
    maxTokens: budget,
    tokens: { before, after: window.tokens },
    dropped: window.dropped,
    cleared: window.cleared,
  };
  if (summarized) report.summarized = { through: summarized.through };
  const providers = Object.keys(providerOptions) as ContextReport['provider'] & string[];
  if (providers.length > 0) report.provider = providers;
  for (const note of notes) warn(state, run, step, `context: ${note.message}`);
  if (report.dropped === 0 && report.cleared === 0 && !summarized) return;
  run.emit({ type: 'context', step, ...report });
  if (summarized) {
    warn(
      state,
      run,
      step,
      'context: older messages were replaced by a summary (state.context.summary) to fit context.maxTokens; the state keeps them',
    );
  } else if (report.dropped > (summary?.through ?? 0)) {
    warn(
      state,
      run,
      step,
      'context: older messages were left out of requests to fit context.maxTokens; the state keeps them',
    );
  }
  if (report.cleared > 0) {
    warn(
      state,
      run,
      step,
      `context: old tool results were sent as placeholders to fit context.maxTokens; ${READ_RESULT} reads them back`,
    );
  }
}

/** The system prompt with the summary at its end. */
export function systemWith(
  instructions: string | undefined,
  summary: ContextSummary | undefined,
): string | undefined {
  if (!summary) return instructions;
  const block = `Summary of the earlier conversation (its messages are not repeated below):\n${summary.text}`;
  return instructions === undefined || instructions === '' ? block : `${instructions}\n\n${block}`;
}

/**
 * The budget in estimated tokens: `maxTokens`, lowered in proportion when the provider
 * counted the previous request of this run higher than it was estimated (never raised:
 * an estimate that runs high only leaves room).
 */
function calibrated(maxTokens: number, state: RunState): number {
  const last = estimates.get(state);
  const counted = last === undefined ? undefined : state.steps[last.step]?.usage.inputTokens;
  if (last === undefined || counted === undefined || !(counted > last.tokens) || last.tokens <= 0) {
    return maxTokens;
  }
  return Math.floor((maxTokens * last.tokens) / counted);
}

/** Adds a warning once per run, and emits it. */
function warn(state: RunState, run: Run, step: number, message: string): void {
  if (state.warnings?.some((w) => w.message === message)) return;
  const warning: ModelWarning = { message };
  state.warnings = [...(state.warnings ?? []), warning];
  run.emit({ type: 'warning', step, warning });
}
