import { unknownKeyMessage } from '../../internal/known-keys.ts';
import { checkOptionalType } from '../../internal/option-type.ts';
import { type CompiledValidator, compile, type SchemaLike } from '../../validate/index.ts';
import type {
  GenerateRequest,
  Model,
  Prices,
  ProviderTool,
  ReasoningOptions,
  ToolCall,
  ToolChoice,
  ToolDefinition,
} from '../model/index.ts';
import { type Tool, toToolDefinition } from '../tool/index.ts';
import { AgentError } from './agent-error.ts';
import { readTools } from './agent-tools.ts';
import { type Budget, readBudget, readPrices } from './budget.ts';
import { type ContextConfig, type ContextOptions, readContext } from './context/index.ts';
import { type AgentGuardrails, type Guardrail, readAgentGuardrails } from './guardrail.ts';
import type { Handoff } from './handoff.ts';
import { type HandoffList, readHandoffs } from './handoff-graph.ts';
import { checkMaxResultChars, DEFAULT_MAX_RESULT_CHARS } from './result-budget.ts';
import { describe } from './state.ts';
import { checkStateSecret, type StateSecret } from './state-signature.ts';
import {
  type PrepareStep,
  readStepControl,
  type StepControl,
  withFallbacks,
} from './step-control.ts';
import { maxSteps, type StopCondition } from './stop-conditions.ts';
import { readTelemetry, type TelemetryConfig, type TelemetryOptions } from './telemetry/index.ts';
import type { ToolGuardrails } from './tool-guardrails.ts';
import { readSettings, type TurnSettings } from './turn-settings.ts';
import type { ApprovalAnswer } from './types.ts';

/** Any fino tool, whatever its argument and result types. */
export type AnyTool = Tool<any, any>;

/**
 * Decides whether a tool call may run: `'allow'` runs it, `'deny'` answers the model
 * with an `isError` result, `'ask'` makes it a pending approval. A tool with
 * `requiresApproval` is asked about whatever the policy says, unless it denies.
 */
export type ApprovalPolicy = (
  call: ToolCall,
  tool: AnyTool,
) => ApprovalAnswer | Promise<ApprovalAnswer>;

/** What `agent()` accepts; `Output` is the type of the `output` schema, when there is one. */
export interface AgentOptions<Output extends SchemaLike | undefined = SchemaLike | undefined> {
  model: Model;
  /** The system prompt sent with every request. */
  instructions?: string;
  /**
   * fino tools, which the agent runs, and provider tools (`openai.tools.webSearch()`, …),
   * which the model's provider runs on its servers.
   */
  tools?: readonly (AnyTool | ProviderTool)[];
  /** When to stop after a step with tool calls (one condition or any of several); default `maxSteps(8)`. */
  stopWhen?: StopCondition | readonly StopCondition[];
  approval?: ApprovalPolicy;
  /** How many tool calls of one turn run at once; default 8. */
  toolConcurrency?: number;
  /** A name for logs and for `asTool()`; default `'agent'`. */
  name?: string;
  /** The most tokens one model turn may produce. */
  maxTokens?: number;
  /** Sampling temperature of every model turn (omitted when not set). */
  temperature?: number;
  /** How the model may use the tools: `'auto'` (the provider's default), `'none'`, `'required'` or `{ name }`. */
  toolChoice?: ToolChoice;
  /** Reasoning effort or thinking budget (`{ effort }` for OpenAI, `{ budgetTokens }` for Anthropic). */
  reasoning?: ReasoningOptions;
  /** Extra request body fields per provider, merged last: `{ openai: { seed: 1 } }`. */
  providerOptions?: GenerateRequest['providerOptions'];
  /**
   * A schema for the final answer (a `v` builder, JSON Schema or Standard Schema whose JSON
   * Schema is an object schema): the model answers through its provider's structured
   * output, and the validated value is `result.output`. An answer that fails the schema
   * gets one repair turn (the issues are sent back), then the run fails with an
   * {@link AgentOutputError}.
   */
  output?: Output;
  /**
   * How many characters of a tool result reach the model (media count by their base64
   * size); a longer result is cut, and the model pages through the rest with the
   * built-in `read_result` tool. A tool's own `maxResultChars` wins. Default 20,000;
   * `Infinity` turns the budget off.
   */
  maxResultChars?: number;
  /** OpenTelemetry spans (on by default when `@opentelemetry/api` is installed); `false` turns them off. */
  telemetry?: false | TelemetryOptions;
  /**
   * A secret of at least 32 bytes for states that travel through clients: every state
   * the agent hands out (results, checkpoints, an aborted run's `error.state`) carries an
   * HMAC-SHA256 `signature` over its content, and `resume()`/`step()` refuse a state
   * whose signature does not match — edited, signed with another secret, or unsigned —
   * with an `AgentError` of code `INVALID_SIGNATURE` (decision 133). Without it a state
   * is trusted as given: see docs/agent.md, "What a stored state trusts".
   */
  stateSecret?: string | Uint8Array;
  /**
   * Keeps every model request within a token budget: before each request, the
   * strategies (`trimOldest()`, `clearToolResults()`, `summarize()`, `providerManaged()`)
   * run in order until it fits `maxTokens` (default: the model's `limits.contextWindow`
   * less the request's output room). Only what is sent changes; the run state keeps every
   * message. See docs/agent.md, "Context window".
   */
  context?: ContextOptions;
  /**
   * Prices in USD per million tokens, over the shipped table (`SHIPPED_PRICES` of
   * `fino:ai/model`, dated `PRICES_WRITTEN`): each step's and the run's `usage.cost` is
   * computed from them. Keys are model names, provider-qualified ids or families
   * (`'gpt-4.1'` prices `openai:gpt-4.1-2025-04-14`). A bad entry is refused here.
   */
  prices?: Prices;
  /**
   * The most one run may spend: `{ maxCost }` in USD, `{ maxTokens }` in total tokens,
   * over the whole run across resumes. A run that reaches it stops with a
   * `BudgetExceededError` (code `BUDGET_EXCEEDED`) carrying its state; resume that state
   * with a higher budget (`resume(state, {}, { budget })`). `maxCost` needs a price for
   * the model.
   */
  budget?: Budget;
  /**
   * Models tried in order when `model` (or the step's model) fails for the provider's
   * fault — 5xx, overloaded, timeouts, connection failures, rate limits past their
   * retries; never a 4xx the request caused (see `fallback()` of `fino:ai/model`).
   * Each step records the model that answered in `steps[i].model`.
   *
   * @example
   * ```ts
   * import { agent } from 'fino:ai/agent';
   * import { ModelError, scriptedModel } from 'fino:ai/model';
   *
   * const down = new ModelError('openai: 503', { provider: 'openai', status: 503, retryable: true });
   * const bot = agent({
   *   model: scriptedModel([down], { id: 'openai:gpt-4.1' }),
   *   fallbackModels: [scriptedModel(['Hi!'], { id: 'anthropic:claude-sonnet-4-5' })],
   * });
   * const result = await bot.generate('Hello');
   * if (result.status === 'done') console.log(result.steps[0].model); // anthropic:claude-sonnet-4-5
   * ```
   */
  fallbackModels?: readonly Model[];
  /** The names of the tools offered to the model (default: all); `prepareStep` may change it per step. */
  activeTools?: readonly string[];
  /**
   * Called before each model request with `{ step, steps, messages, agent }`; returns
   * the `model`, `instructions`, `activeTools` and `toolChoice` of that step (each
   * optional), or `undefined` for the agent's own. See docs/agent.md, "Per-step control".
   *
   * @example
   * ```ts
   * import { agent } from 'fino:ai/agent';
   * import { scriptedModel } from 'fino:ai/model';
   *
   * const bot = agent({
   *   model: scriptedModel(['Hello!']),
   *   prepareStep: ({ step }) => (step === 0 ? { instructions: 'Greet the user.' } : undefined),
   * });
   * const result = await bot.generate('Hi');
   * if (result.status === 'done') console.log(result.text); // Hello!
   * ```
   */
  prepareStep?: PrepareStep;
  /**
   * The agents this one may hand the conversation to: agents, or `handoff(agent, options)`
   * for a tool name, description, arguments or input filter. The model sees each as a tool
   * (`transfer_to_<name>`); its call makes the target the run's active agent. A function
   * returning the list is read on the first run, so two agents can hand off to each other.
   * Agent names in one graph must be unique. See docs/agent.md, "Handoffs".
   */
  handoffs?: HandoffList;
  /** What this agent does, for the model of an agent that may hand off to it. */
  description?: string;
  /**
   * Checks of the user's input, run with the first model request (or before it, with
   * `runInParallel: false`); one that trips stops the run with a `GuardrailTrippedError`
   * and the model's answer is discarded (its usage still counted). See docs/agent.md, "Guardrails".
   */
  inputGuardrails?: readonly Guardrail[];
  /** Checks of the final answer, run before the result is returned; a trip stops the run. */
  outputGuardrails?: readonly Guardrail[];
  /** Checks of every tool call the agent runs: `before` it runs, `after` it returns. */
  toolGuardrails?: ToolGuardrails<Guardrail>;
}

/** Every option `agent()` knows, so an unknown one (a typo) is refused, not ignored. */
const KNOWN_OPTIONS: Record<keyof AgentOptions, true> = {
  model: true,
  instructions: true,
  tools: true,
  stopWhen: true,
  approval: true,
  toolConcurrency: true,
  name: true,
  maxResultChars: true,
  telemetry: true,
  stateSecret: true,
  maxTokens: true,
  temperature: true,
  toolChoice: true,
  reasoning: true,
  providerOptions: true,
  output: true,
  context: true,
  prices: true,
  budget: true,
  fallbackModels: true,
  activeTools: true,
  prepareStep: true,
  handoffs: true,
  description: true,
  inputGuardrails: true,
  outputGuardrails: true,
  toolGuardrails: true,
};

/** The checked, normalized form of {@link AgentOptions}. */
export interface AgentConfig extends AgentGuardrails {
  name: string;
  model: Model;
  instructions: string | undefined;
  tools: ReadonlyMap<string, AnyTool>;
  definitions: ToolDefinition[];
  /** Tools the model's provider runs, by name: sent with every request, never run here. */
  providerTools: ReadonlyMap<string, ProviderTool>;
  stopWhen: readonly StopCondition[];
  approval: ApprovalPolicy | undefined;
  toolConcurrency: number;
  settings: TurnSettings;
  /** Validates the final answer, for agents with an `output` schema. */
  output: CompiledValidator<unknown> | undefined;
  maxResultChars: number;
  telemetry: TelemetryConfig | undefined;
  /** Signs the states the agent hands out and checks the ones it is given. */
  stateSecret: StateSecret | undefined;
  /** The `context` option, checked: the budget and the strategies of the context step. */
  context: ContextConfig | undefined;
  /** The caller's prices, over the shipped table. */
  prices: Prices | undefined;
  /** The limits of each run (a run's own `budget` option goes over them). */
  budget: Budget | undefined;
  /** `fallbackModels`, `activeTools` and `prepareStep`, checked (`model` includes the fallbacks). */
  stepControl: StepControl;
  /** The `description` option: what a handoff to this agent tells the model by default. */
  description: string | undefined;
  /** The `handoffs` option, checked; read on the first run (see handoff-graph.ts). */
  handoffs: (() => Handoff[]) | undefined;
}

/** Default number of tool calls of one turn that run at once. */
export const DEFAULT_TOOL_CONCURRENCY = 8;

/** Checks `agent()` options, with an error naming the bad option and what was expected. */
export function readOptions(options: AgentOptions): AgentConfig {
  if (options === null || typeof options !== 'object') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `agent(options): expected an options object, received ${describe(options)}`,
    );
  }
  const unknown = unknownKeyMessage('agent(options)', options, Object.keys(KNOWN_OPTIONS), {
    system: '"instructions"',
    maxSteps: '"stopWhen" (stopWhen: maxSteps(n))',
    thinking: '"reasoning" ({ reasoning: { budgetTokens } })',
  });
  if (unknown) throw new AgentError('INVALID_ARGUMENT', unknown);
  const { instructions, tools = [], stopWhen, approval, name = 'agent' } = options;
  let { model } = options;
  if (
    model === null ||
    typeof model !== 'object' ||
    typeof model.generate !== 'function' ||
    typeof model.stream !== 'function'
  ) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `agent(options).model: expected a Model with generate() and stream(), received ${describe(model)}`,
    );
  }
  for (const key of ['instructions', 'description'] as const) {
    checkOptionalType(
      options[key],
      'string',
      `agent(options).${key}`,
      (message) => new AgentError('INVALID_ARGUMENT', message),
    );
  }
  if (typeof name !== 'string' || name === '') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `agent(options).name: expected a non-empty string, received ${describe(name)}`,
    );
  }
  if (approval !== undefined && typeof approval !== 'function') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `agent(options).approval: expected a function (call, tool) => 'allow' | 'deny' | 'ask', received ${describe(approval)}`,
    );
  }
  const toolConcurrency = options.toolConcurrency ?? DEFAULT_TOOL_CONCURRENCY;
  if (!(Number.isInteger(toolConcurrency) || toolConcurrency === Infinity) || toolConcurrency < 1) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `agent(options).toolConcurrency: expected a positive integer or Infinity, received ${describe(toolConcurrency)}`,
    );
  }
  const { byName, providerTools } = readTools(tools);
  const stepControl = readStepControl(options, byName, providerTools);
  model = withFallbacks(model, stepControl);
  const settings = readSettings(options, byName);
  const prices = readPrices(options.prices);
  // A cost limit holds only when every model that may answer has a price.
  for (const m of stepControl.fallbackModels ?? [])
    readBudget(options.budget, 'agent(options).budget', m, prices);
  return {
    name,
    model,
    instructions,
    tools: byName,
    definitions: [...byName.values()].map((t) => toToolDefinition(t)),
    providerTools,
    stopWhen: readStopWhen(stopWhen),
    approval,
    toolConcurrency,
    settings,
    output: options.output === undefined ? undefined : compile(options.output),
    maxResultChars: checkMaxResultChars(
      'agent(options).maxResultChars',
      options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
    ),
    telemetry: readTelemetry(options.telemetry),
    stateSecret: checkStateSecret(options.stateSecret),
    context: readContext(options.context, model, settings.maxTokens),
    prices,
    budget: readBudget(options.budget, 'agent(options).budget', model, prices),
    stepControl,
    description: options.description,
    handoffs: readHandoffs(options.handoffs),
    ...readAgentGuardrails(options),
  };
}

function readStopWhen(stopWhen: AgentOptions['stopWhen']): readonly StopCondition[] {
  if (stopWhen === undefined) return [maxSteps(8)];
  const conditions = Array.isArray(stopWhen) ? stopWhen : [stopWhen];
  conditions.forEach((c, i) => {
    if (typeof c !== 'function') {
      throw new AgentError(
        'INVALID_ARGUMENT',
        `agent(options).stopWhen${Array.isArray(stopWhen) ? `[${i}]` : ''}: expected a stop condition such as maxSteps(n), received ${describe(c)}`,
      );
    }
  });
  return conditions;
}
