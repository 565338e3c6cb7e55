import type { Run } from '../run.ts';
import type { RunState } from '../types.ts';
import type { ContextStrategy, ContextSummary } from './types.ts';
import type { ContextWindow } from './window.ts';

/** What a strategy works on in one request's context step. */
export interface StrategyInput {
  window: ContextWindow;
  state: RunState;
  run: Run;
  step: number;
  /** The summary in force (the state's, or one made earlier in this step). */
  summary: ContextSummary | undefined;
  /** Replaces the summary in force: leaves out the messages it stands for. */
  setSummary(summary: ContextSummary): void;
  /** Merges fields into one provider's request options. */
  setProviderOption(provider: 'anthropic' | 'openai', fields: Record<string, unknown>): void;
  /** Records why a strategy could not help (shown in the overflow error and a warning). */
  note(message: string, cause?: unknown): void;
}

/** A strategy's behaviour, kept out of the public object. */
export interface StrategyBehaviour {
  /** Runs even when the request fits (provider options), and lets an oversized request through. */
  providerSide?: boolean;
  apply(input: StrategyInput): void | Promise<void>;
}

const behaviours = new WeakMap<ContextStrategy, StrategyBehaviour>();

/** A frozen public strategy object whose behaviour only the context step can reach. */
export function defineStrategy(
  name: ContextStrategy['name'],
  options: object,
  behaviour: StrategyBehaviour,
): ContextStrategy {
  const strategy = Object.freeze({ name, options: Object.freeze({ ...options }) });
  behaviours.set(strategy, behaviour);
  return strategy;
}

/** The behaviour of a strategy made by this module, or `undefined` for anything else. */
export function behaviourOf(strategy: unknown): StrategyBehaviour | undefined {
  return strategy !== null && typeof strategy === 'object'
    ? behaviours.get(strategy as ContextStrategy)
    : undefined;
}
