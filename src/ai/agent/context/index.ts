/**
 * `ai/agent/context`: the context window — how many input tokens one model request may
 * carry, and what the agent does when the conversation no longer fits. Each request
 * passes through the context step, which measures what it would send and lets the run's
 * strategies cut it down; the run's history in `state.messages` is never changed.
 *
 * The files: the option and its types (`types.ts`, checked by `options.ts` and
 * `check.ts`; `state.context` read back from storage by `check-state.ts`); the step
 * (`step.ts`, with the token estimates of `measure.ts` and the view of the messages one
 * request sends, `window.ts`); the strategies (`strategy.ts`, their shared frame, then
 * `trim-oldest.ts`, `clear-tool-results.ts`, `summarize.ts`, `provider-managed.ts`).
 *
 * May import: the agent's own files it builds on (`../agent-error.ts`, `../describe.ts`,
 * `../abort.ts`, `../budget.ts`, `../result-budget.ts`, `../state.ts`, and the types of
 * `../types.ts` and `../run.ts`), `fino:ai/model` through `../../model/index.ts`, and
 * `src/internal/`. The rest of `ai/agent` imports the room through this file, except
 * `../state.ts`, which imports `./check-state.ts` directly: `summarize.ts` imports
 * `../state.ts` (`addUsage`), so going through this file would be a runtime cycle.
 */
export { type ClearToolResultsOptions, clearToolResults } from './clear-tool-results.ts';
export { type ContextConfig, readContext } from './options.ts';
export { type ProviderManagedOptions, providerManaged } from './provider-managed.ts';
export { applyContext } from './step.ts';
export { DEFAULT_SUMMARY_PROMPT, type SummarizeOptions, summarize } from './summarize.ts';
export { type TrimOldestOptions, trimOldest } from './trim-oldest.ts';
export type {
  ContextOptions,
  ContextReport,
  ContextState,
  ContextStrategy,
  ContextSummary,
} from './types.ts';
