/**
 * `fino:ai/agent`: the loop that runs a model with tools — concurrent tool calls,
 * approvals, suspension, a plain-JSON run state, and resuming it in any process.
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
  clearToolResults,
} from './context/clear-tool-results.ts';
export { type ProviderManagedOptions, providerManaged } from './context/provider-managed.ts';
export { DEFAULT_SUMMARY_PROMPT, type SummarizeOptions, summarize } from './context/summarize.ts';
export { type TrimOldestOptions, trimOldest } from './context/trim-oldest.ts';
export type {
  ContextOptions,
  ContextReport,
  ContextState,
  ContextStrategy,
  ContextSummary,
} from './context/types.ts';
export type { RunHooks } from './hooks.ts';
export type { AgentOptions, AnyTool, ApprovalPolicy } from './options.ts';
export { AgentOutputError } from './output.ts';
export { type PendingCallInit, pendingCall } from './pending-call.ts';
export { DEFAULT_MAX_RESULT_CHARS } from './result-budget.ts';
export { addUsage, STATE_VERSION } from './state.ts';
export { maxSteps, type StopCondition } from './stop-conditions.ts';
export { streamText } from './stream-text.ts';
export type { OtelSpan, OtelTracer, TelemetryOptions, TraceContext } from './telemetry.ts';
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
