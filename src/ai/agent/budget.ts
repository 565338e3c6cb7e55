/**
 * A run's budget: what each step costs (from the agent's prices), and the limits
 * `maxCost` and `maxTokens` that stop a run cleanly, resumable with a higher budget
 * (docs/decisions/151).
 */
import { unknownKeyMessage } from '../../internal/known-keys.ts';
import {
  checkPrices,
  findPrice,
  type Model,
  type Prices,
  type Usage,
  usageCost,
} from '../model/index.ts';
import { AgentError } from './agent-error.ts';
import { describe } from './describe.ts';
import type { AgentConfig } from './options.ts';
import { type StateSecret, signState } from './state-signature.ts';
import type { RunState } from './types.ts';

/**
 * The most one run may spend, counted over the whole run across resumes
 * (`state.usage`): `maxCost` in USD (the model must have a price), `maxTokens` in
 * tokens (input and output). `Infinity` lifts a limit. Checked before every model
 * request, and after each model turn's usage is added (a turn that crosses the limit
 * stops the run before its tool calls run; a final answer is kept).
 *
 * @example
 * ```ts
 * import { agent, type Budget } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 *
 * const budget: Budget = { maxCost: 0.5, maxTokens: 200_000 };
 * const bot = agent({
 *   model: scriptedModel(['Hi!'], { id: 'openai:gpt-4.1' }),
 *   budget,
 * });
 * console.log((await bot.generate('Hello')).status); // 'done'
 * ```
 */
export interface Budget {
  maxCost?: number;
  maxTokens?: number;
}

/** A run that reached its budget: an {@link AgentError} with code `BUDGET_EXCEEDED` and the state to resume. */
export class BudgetExceededError extends AgentError {
  override readonly name = 'BudgetExceededError';

  constructor(
    message: string,
    /** The run's state when it stopped (signed with the agent's `stateSecret`): resume it with a higher budget. */
    readonly state: RunState,
    /** The limit that was reached. */
    readonly limit: 'maxCost' | 'maxTokens',
    /** What the run had spent of it: USD for `maxCost`, tokens for `maxTokens`. */
    readonly spent: number | 'unknown',
    /** What was spent of which limit, in words, e.g. `it spent $0.21 of its budget maxCost: 0.15`. */
    readonly overspent: string,
  ) {
    super('BUDGET_EXCEEDED', message);
  }
}

/** The agent's `prices`, checked: an `AgentError` of code `INVALID_ARGUMENT` naming the bad entry. */
export function readPrices(value: unknown): Prices | undefined {
  if (value === undefined) return undefined;
  try {
    return checkPrices(value, 'agent(options).prices');
  } catch (error) {
    throw new AgentError('INVALID_ARGUMENT', (error as Error).message, { cause: error });
  }
}

/**
 * Checks a budget (`where` names it in messages): positive limits, and a price for the
 * model when it has `maxCost` — a cost limit on a model without a price would never hold.
 */
export function readBudget(
  value: unknown,
  where: string,
  model: Model,
  prices: Prices | undefined,
): Budget | undefined {
  const budget = checkBudget(value, where);
  const { maxCost } = budget ?? {};
  if (maxCost !== undefined && maxCost !== Infinity && findPrice(model.id, prices) === undefined) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${where}.maxCost: the model "${model.id}" has no price, so its cost is unknown; pass agent({ prices: { '${model.id}': { input, output } } }) in USD per million tokens`,
    );
  }
  return budget;
}

/**
 * Checks the shape of a {@link Budget} (`where` names it in messages) and returns a
 * copy: positive limits (`Infinity` lifts one), no other keys. An `AgentError` of code
 * `INVALID_ARGUMENT` otherwise. The agent also checks that `maxCost` has a price.
 *
 * @example
 * ```ts
 * import { checkBudget } from 'fino:ai/agent';
 *
 * console.log(checkBudget({ maxCost: 2 }, 'budget')); // { maxCost: 2 }
 * try {
 *   checkBudget({ maxCost: -1 }, 'budget');
 * } catch (error) {
 *   console.log((error as Error).message); // budget.maxCost: expected a number of USD > 0 (or Infinity), received …
 * }
 * ```
 */
export function checkBudget(value: unknown, where: string): Budget | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${where}: expected { maxCost?, maxTokens? }, received ${describe(value)}`,
    );
  }
  const unknown = unknownKeyMessage(where, value, ['maxCost', 'maxTokens']);
  if (unknown) throw new AgentError('INVALID_ARGUMENT', unknown);
  const { maxCost, maxTokens } = value as Budget;
  if (maxCost !== undefined) {
    if (typeof maxCost !== 'number' || Number.isNaN(maxCost) || maxCost <= 0) {
      throw new AgentError(
        'INVALID_ARGUMENT',
        `${where}.maxCost: expected a number of USD > 0 (or Infinity), received ${describe(maxCost)}`,
      );
    }
  }
  if (
    maxTokens !== undefined &&
    maxTokens !== Infinity &&
    (!Number.isSafeInteger(maxTokens) || maxTokens < 1)
  ) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${where}.maxTokens: expected a positive integer number of tokens (or Infinity), received ${describe(maxTokens)}`,
    );
  }
  return {
    ...(maxCost !== undefined && { maxCost }),
    ...(maxTokens !== undefined && { maxTokens }),
  };
}

/** The budget of one run: the agent's, with the run's own `budget` option (checked) over it. */
export function runBudget(config: AgentConfig, value: unknown): Budget | undefined {
  const own = readBudget(value, 'run options.budget', config.model, config.prices);
  return own === undefined ? config.budget : { ...config.budget, ...own };
}

/** A model turn's usage with its cost, at the agent's prices (`'unknown'` without one). */
export function withCost(usage: Usage, model: Model, prices: Prices | undefined): Usage {
  return { ...usage, cost: usageCost(model.id, usage, prices) };
}

/**
 * Throws a {@link BudgetExceededError} carrying a copy of `state` when the run has
 * spent its budget: as many tokens as `maxTokens`, or as much as `maxCost` (or an
 * unknown amount, from steps made without a price).
 */
export function enforceBudget(
  state: RunState,
  budget: Budget | undefined,
  secret: StateSecret | undefined,
): void {
  if (budget === undefined) return;
  const { totalTokens, cost } = state.usage;
  const stop = (limit: 'maxCost' | 'maxTokens', spent: number | 'unknown', shown: string) => {
    const copy = structuredClone(state);
    const overspent = `it spent ${shown} of its budget ${limit}: ${budget[limit]}`;
    throw new BudgetExceededError(
      `run "${state.runId}" stopped: ${overspent}; resume it with a higher budget (resume(state, {}, { budget: { ${limit}: … } }))`,
      secret === undefined ? copy : signState(copy, secret),
      limit,
      spent,
      overspent,
    );
  };
  if (budget.maxTokens !== undefined && totalTokens >= budget.maxTokens) {
    stop('maxTokens', totalTokens, `${totalTokens} tokens`);
  }
  if (budget.maxCost !== undefined && budget.maxCost !== Infinity) {
    const spent = cost ?? (totalTokens === 0 ? 0 : 'unknown');
    if (spent === 'unknown') stop('maxCost', spent, 'an unknown amount (steps without a price)');
    else if (spent >= budget.maxCost) stop('maxCost', spent, `$${spent}`);
  }
}
