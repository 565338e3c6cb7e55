/**
 * `fino:ai/agent`: the loop that runs a model with tools — concurrent tool calls,
 * approvals, suspension, a plain-JSON run state, and resuming it in any process.
 *
 * What a run may spend and see: the context window (`context`: a token budget per
 * request, kept by strategies — `trimOldest`, `clearToolResults`, `summarize`,
 * `providerManaged` — in `context/`); budgets (`budget`: `maxCost` and `maxTokens` per
 * run, priced from the model's usage, stopping a run resumably); output budgets
 * (`maxTokens` per model turn, and `maxResultChars` per tool result, paged through with
 * the built-in `read_result` tool); a structured `output` checked against its schema.
 * Any `fino:ai/model` model drives it — Chat Completions or Responses for OpenAI,
 * Anthropic, Gemini, a scripted one — and OpenTelemetry spans are made when
 * `@opentelemetry/api` is installed. Conversations that outlive a run (threads, an inbox
 * of pending approvals, durable stores) are `fino:ai/session`'s, built on this loop.
 *
 * The files: `agent.ts` (the `Agent`), `run.ts` (one run's loop), `model-turn.ts`,
 * `settle-call.ts` (a tool call's approval, execution and suspension), `state.ts` and
 * `state-signature.ts` (the run state), the options' checks (`options.ts`,
 * `turn-settings.ts`, `agent-tools.ts`, `run-options.ts`), each step's model and tools
 * (`step-control.ts`, `step-plan.ts`, `turn-cost.ts`), guardrails (`guardrail.ts`
 * the definition, `guardrail-run.ts` running checks, `input-guardrails.ts`,
 * `output-guardrails.ts`, `tool-guardrails.ts`, `guardrail-state.ts`,
 * `guardrail-error.ts`), and tracing in the room `telemetry/`. It imports `fino:ai/model`,
 * `fino:ai/tool`, `fino:task`, `fino:validate` and `src/internal`.
 *
 * @module
 */

export { decisionMismatch } from '../../internal/durable/index.ts';
export { Agent, type AgentStream, agent, type OutputOf } from './agent.ts';
export { AgentError, type AgentErrorCode } from './agent-error.ts';
export type { AgentToolOptions, AgentToolResume } from './agent-tool.ts';
export { argsHash } from './args-hash.ts';
export { type Budget, BudgetExceededError, checkBudget } from './budget.ts';
export {
  type ClearToolResultsOptions,
  type ContextOptions,
  type ContextReport,
  type ContextState,
  type ContextStrategy,
  type ContextSummary,
  clearToolResults,
  DEFAULT_SUMMARY_PROMPT,
  type ProviderManagedOptions,
  providerManaged,
  type SummarizeOptions,
  summarize,
  type TrimOldestOptions,
  trimOldest,
} from './context/index.ts';
export { rejectionPrefix } from './decisions.ts';
export {
  DEFAULT_GUARDRAIL_TIMEOUT_MS,
  type Guardrail,
  type GuardrailAgent,
  type GuardrailCheck,
  type GuardrailContext,
  type GuardrailKind,
  type GuardrailOptions,
  type GuardrailVerdict,
  guardrail,
} from './guardrail.ts';
export { GuardrailFailedError, GuardrailTrippedError } from './guardrail-error.ts';
export type { GuardrailState, GuardrailTrip } from './guardrail-state.ts';
export { Handoff, type HandoffOptions, type HandoffTarget, handoff } from './handoff.ts';
export type { HandoffEntry, HandoffList } from './handoff-graph.ts';
export type { RunHooks } from './hooks.ts';
export type { AgentOptions, AnyTool, ApprovalPolicy } from './options.ts';
export { AgentOutputError } from './output.ts';
export { type PendingCallInit, pendingCall } from './pending-call.ts';
export { DEFAULT_MAX_RESULT_CHARS } from './result-budget.ts';
export { addUsage, STATE_VERSION } from './state.ts';
export type { PrepareStep, PrepareStepInfo, StepSettings } from './step-control.ts';
export { maxSteps, type StopCondition } from './stop-conditions.ts';
export { streamText } from './stream-text.ts';
export type { OtelSpan, OtelTracer, TelemetryOptions, TraceContext } from './telemetry/index.ts';
export type { ToolGuardrails } from './tool-guardrails.ts';
export type {
  AgentEvent,
  AgentInput,
  AgentRunOptions,
  ApprovalAnswer,
  CheckpointInfo,
  CheckpointReason,
  ClearedCall,
  Decision,
  Decisions,
  DoneResult,
  OpenTurn,
  PendingCall,
  RunResult,
  RunState,
  StepOutcome,
  StepResult,
  StoredResult,
  SuspendedResult,
} from './types.ts';
