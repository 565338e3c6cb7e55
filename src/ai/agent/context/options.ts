import { unknownKeyMessage } from '../../../internal/known-keys.ts';
import type { Model } from '../../model/index.ts';
import { AgentError } from '../agent-error.ts';
import { describe } from '../describe.ts';
import { ContextMeasure } from './measure.ts';
import { behaviourOf, type StrategyBehaviour } from './strategy.ts';
import type { ContextOptions, ContextStrategy } from './types.ts';

/** The checked `context` option. */
export interface ContextConfig {
  /** The budget of one request, in estimated input tokens. */
  maxTokens: number;
  strategies: readonly { name: ContextStrategy['name']; behaviour: StrategyBehaviour }[];
  /** Whether a provider-side strategy is in the list (an oversized request is then sent). */
  providerSide: boolean;
  measure: ContextMeasure;
}

const WHERE = 'agent(options).context';

/**
 * Checks the `context` option; `maxTokens` defaults to the model's context window less
 * the output room of a request (`outputTokens`: the agent's `maxTokens`, else the model's
 * `limits.maxOutput`).
 */
export function readContext(
  options: ContextOptions | undefined,
  model: Model,
  outputTokens: number | undefined,
): ContextConfig | undefined {
  if (options === undefined) return undefined;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${WHERE}: expected { maxTokens?, strategy }, received ${describe(options)}`,
    );
  }
  const unknown = unknownKeyMessage(WHERE, options, ['maxTokens', 'strategy']);
  if (unknown) throw new AgentError('INVALID_ARGUMENT', unknown);
  const list = Array.isArray(options.strategy) ? options.strategy : [options.strategy];
  if (list.length === 0) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${WHERE}.strategy: expected a strategy or a non-empty array of strategies, received []`,
    );
  }
  const strategies = list.map((strategy, i) => {
    const behaviour = behaviourOf(strategy);
    if (!behaviour) {
      const at = Array.isArray(options.strategy) ? `[${i}]` : '';
      throw new AgentError(
        'INVALID_ARGUMENT',
        `${WHERE}.strategy${at}: expected a strategy from trimOldest(), clearToolResults(), summarize() or providerManaged(), received ${describe(strategy)}`,
      );
    }
    return { name: (strategy as ContextStrategy).name, behaviour };
  });
  return {
    maxTokens: readMaxTokens(options.maxTokens, model, outputTokens),
    strategies,
    providerSide: strategies.some((s) => s.behaviour.providerSide),
    measure: new ContextMeasure(model),
  };
}

function readMaxTokens(value: unknown, model: Model, outputTokens: number | undefined): number {
  if (value !== undefined) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new AgentError(
        'INVALID_ARGUMENT',
        `${WHERE}.maxTokens: expected a positive integer, received ${describe(value)}`,
      );
    }
    return value;
  }
  const limits = model.limits;
  if (
    limits === undefined ||
    limits === null ||
    !Number.isInteger(limits.contextWindow) ||
    limits.contextWindow < 1
  ) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${WHERE}.maxTokens: the model "${model.id}" declares no limits (model.limits.contextWindow), so the budget cannot be derived; pass context.maxTokens`,
    );
  }
  const output = outputTokens ?? (Number.isInteger(limits.maxOutput) ? limits.maxOutput : 0);
  const maxTokens = limits.contextWindow - output;
  if (maxTokens < 1) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${WHERE}.maxTokens: the model "${model.id}" has a context window of ${limits.contextWindow} tokens, which leaves no input room after ${output} output tokens; pass context.maxTokens or a smaller maxTokens`,
    );
  }
  return maxTokens;
}
