/**
 * `ai/model/usage`: what a request takes and what it costs — token estimates and
 * `countTokens`, the shipped model limits (context window, output tokens), the price
 * table and its lookups, costs and the one-line usage description.
 *
 * May import: `../core/` and `src/internal/`; never `wire/`, `provider/` or a provider room.
 */
export { addCosts, priceUsage, usageCost } from './cost.ts';
export { countTokens, isTokenCount, type TokenCount } from './count-tokens.ts';
export { describeUsage } from './describe-usage.ts';
export { modelLimits } from './model-limits.ts';
export { PRICES_WRITTEN, SHIPPED_PRICES } from './price-table.ts';
export {
  checkPrices,
  findPrice,
  MAX_PRICE_ENTRIES,
  type ModelPrice,
  modelFamily,
  type Prices,
  type TokenRates,
} from './prices.ts';
export { settleUsage, wireCount } from './reported-usage.ts';
export { estimateMessageTokens, estimateTokens } from './token-estimate.ts';
