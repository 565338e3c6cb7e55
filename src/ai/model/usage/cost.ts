/**
 * What usage costs in USD, exactly: every cost is a whole number of nano-dollars
 * (10⁻⁹ USD) shown as dollars, so sums do not drift however they are grouped — a run
 * resumed ten times costs the sum of its steps, to the last digit (docs/decisions/150).
 */

import type { Usage } from '../core/index.ts';
import { findPrice, type ModelPrice, type Prices, type TokenRates } from './prices.ts';

/** Nano-dollars per dollar. */
const NANO = 1e9;

/** Pico-dollars per token for a rate in USD per million tokens (exact for rates of up to 6 decimals). */
const picoPerToken = (usdPerMillion: number) => BigInt(Math.round(usdPerMillion * 1e6));

const count = (value: number | undefined) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;

/**
 * What `usage` costs at `price`, in USD, rounded to the nano-dollar. Cached and
 * cache-write tokens are part of `inputTokens` and pay their own rates (the input rate
 * when the price has none); reasoning tokens are part of `outputTokens` and pay
 * `reasoning` where the price sets it, else the output rate. A request whose input is
 * over `price.above.inputTokens` pays the `above` rates on all its tokens.
 *
 * @example
 * ```ts
 * import { priceUsage } from 'fino:ai/model';
 *
 * const usage = { inputTokens: 1_000_000, outputTokens: 100_000, totalTokens: 1_100_000, cachedInputTokens: 400_000 };
 * console.log(priceUsage(usage, { input: 2, output: 8, cachedInput: 0.5 })); // 2.2 (0.6 × 2 + 0.4 × 0.5 + 0.1 × 8)
 * ```
 */
export function priceUsage(usage: Usage, price: ModelPrice): number {
  const input = count(usage.inputTokens);
  const rates: TokenRates =
    price.above !== undefined && input > price.above.inputTokens ? price.above : price;
  const cached = Math.min(count(usage.cachedInputTokens), input);
  const written = Math.min(count(usage.cacheWriteTokens), input - cached);
  const output = count(usage.outputTokens);
  const reasoning = Math.min(count(usage.reasoningTokens), output);
  const pico =
    BigInt(input - cached - written) * picoPerToken(rates.input) +
    BigInt(cached) * picoPerToken(rates.cachedInput ?? rates.input) +
    BigInt(written) * picoPerToken(rates.cacheWrite ?? rates.input) +
    BigInt(output - reasoning) * picoPerToken(rates.output) +
    BigInt(reasoning) * picoPerToken(rates.reasoning ?? rates.output);
  return fromNano(Number((pico + 500n) / 1000n));
}

/**
 * What `usage` of the model `modelId` costs in USD, from `prices` (checked with
 * `checkPrices`) or the shipped table; `'unknown'` when neither prices the model —
 * never 0.
 *
 * @example
 * ```ts
 * import { usageCost } from 'fino:ai/model';
 *
 * const usage = { inputTokens: 10_000, outputTokens: 2_000, totalTokens: 12_000 };
 * console.log(usageCost('openai:gpt-4.1-2025-04-14', usage)); // 0.036
 * console.log(usageCost('acme:homegrown', usage)); // 'unknown'
 * ```
 */
export function usageCost(modelId: string, usage: Usage, prices?: Prices): number | 'unknown' {
  const price = findPrice(modelId, prices);
  return price === undefined ? 'unknown' : priceUsage(usage, price);
}

/**
 * The sum of two costs, exact to the nano-dollar: `'unknown'` when either is.
 *
 * @example
 * ```ts
 * import { addCosts } from 'fino:ai/model';
 *
 * console.log(addCosts(0.1, 0.2)); // 0.3, not 0.30000000000000004
 * console.log(addCosts(0.1, 'unknown')); // 'unknown'
 * ```
 */
export function addCosts(a: number | 'unknown', b: number | 'unknown'): number | 'unknown' {
  if (a === 'unknown' || b === 'unknown') return 'unknown';
  return fromNano(toNano(a) + toNano(b));
}

/** A cost in whole nano-dollars (what every cost fino computes is). */
export const toNano = (usd: number): number => Math.round(usd * NANO);

/** Whole nano-dollars as dollars: the double nearest the decimal, so it reads as written. */
const fromNano = (nano: number): number => nano / NANO;
