import type { ProviderName } from '../../model/index.ts';

/**
 * The agent's `context` option: how many input tokens one model request may carry, and
 * what to do when the conversation no longer fits.
 */
export interface ContextOptions {
  /**
   * The most input tokens one request may carry — system prompt, tool definitions and
   * messages, as estimated by `estimateTokens`. Default: the model's
   * `limits.contextWindow` minus the request's output room (the agent's `maxTokens`, else
   * `limits.maxOutput`). A model without `limits` (one written by hand) needs it: `agent()`
   * refuses the option otherwise.
   */
  maxTokens?: number;
  /**
   * One strategy or several, tried in order until the request fits: `clearToolResults()`,
   * `summarize()`, `trimOldest()`, `providerManaged()`.
   */
  strategy: ContextStrategy | readonly ContextStrategy[];
}

/** A strategy made by `trimOldest`, `clearToolResults`, `summarize` or `providerManaged`. */
export interface ContextStrategy {
  /** Which strategy: `'trimOldest'`, `'clearToolResults'`, `'summarize'` or `'providerManaged'`. */
  readonly name: 'trimOldest' | 'clearToolResults' | 'summarize' | 'providerManaged';
}

/** The summary a run's earlier messages were replaced by (`RunState.context.summary`). */
export interface ContextSummary {
  /** The model-written summary, sent at the end of the system prompt. */
  text: string;
  /** How many leading `state.messages` it stands for (they stay in the state, unsent). */
  through: number;
}

/** What the context step keeps in the run state. */
export interface ContextState {
  summary?: ContextSummary;
}

/** What a `context` event reports: what one request's context step changed. */
export interface ContextReport {
  /** The request's budget, in estimated input tokens. */
  maxTokens: number;
  /** Estimated input tokens before the step changed anything, and after. */
  tokens: { before: number; after: number };
  /** How many messages of the state were not sent (summarised ones included). */
  dropped: number;
  /** Tool results sent as a placeholder that `read_result` can page through. */
  cleared: number;
  /** Set when this step wrote a new summary. */
  summarized?: { through: number };
  /** Providers whose own context management was switched on in this request. */
  provider?: ProviderName[];
}
