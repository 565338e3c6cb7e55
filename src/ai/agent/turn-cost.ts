/**
 * What a model turn cost: each model tried for it (a `fallback()`'s attempts) priced
 * at its own rates, summed; a plain turn priced as its model.
 */
import {
  addCosts,
  type GenerateResult,
  type Model,
  type Prices,
  type Usage,
  usageCost,
} from '../model/index.ts';

/**
 * The turn's usage with its cost: the answer at the answering model's prices, plus each
 * failed attempt that reported usage at its own model's.
 */
export function priceTurn(result: GenerateResult, model: Model, prices: Prices | undefined): Usage {
  const attempts = Array.isArray(result.attempts) ? result.attempts : [];
  const answer = attempts.at(-1);
  const answered = answer?.usage ?? result.usage;
  let cost = usageCost(result.model ?? model.id, answered, prices);
  for (const failed of attempts.slice(0, -1)) {
    if (failed.usage === undefined || failed.usage.totalTokens === 0) continue;
    cost = addCosts(cost, usageCost(failed.model, failed.usage, prices));
  }
  return { ...result.usage, cost };
}
