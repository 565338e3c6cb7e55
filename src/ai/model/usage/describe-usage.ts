/**
 * Usage as one line of text, the same in the inbox and in `fino sessions show`.
 */
import type { Usage } from '../core/index.ts';

/**
 * `usage` as a short line: tokens in (with the cached and cache-written part), out (with
 * the reasoning part), the total, and the cost in USD — `cost unknown` for a model
 * without a price, nothing when the usage has no cost. Safe on any value (a stored
 * state's usage may be damaged): what is not a count is left out.
 *
 * @example
 * ```ts
 * import { describeUsage } from 'fino:ai/model';
 *
 * console.log(describeUsage({ inputTokens: 1200, outputTokens: 80, totalTokens: 1280, cachedInputTokens: 1000, cost: 0.00052 }));
 * // 1200 in (1000 cached), 80 out, 1280 tokens, $0.00052
 * console.log(describeUsage({ inputTokens: 10, outputTokens: 2, totalTokens: 12, cost: 'unknown' }));
 * // 10 in, 2 out, 12 tokens, cost unknown
 * ```
 */
export function describeUsage(usage: Usage): string {
  const n = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) ? String(value) : '?';
  const part = (value: unknown, label: string) =>
    typeof value === 'number' && Number.isFinite(value) && value > 0 ? [`${value} ${label}`] : [];
  const inputParts = [
    ...part(usage?.cachedInputTokens, 'cached'),
    ...part(usage?.cacheWriteTokens, 'cache write'),
  ];
  const outputParts = part(usage?.reasoningTokens, 'reasoning');
  const cost = usage?.cost;
  return [
    `${n(usage?.inputTokens)} in${inputParts.length ? ` (${inputParts.join(', ')})` : ''}`,
    `${n(usage?.outputTokens)} out${outputParts.length ? ` (${outputParts.join(', ')})` : ''}`,
    `${n(usage?.totalTokens)} tokens`,
    ...(cost === 'unknown'
      ? ['cost unknown']
      : typeof cost === 'number' && Number.isFinite(cost)
        ? [`$${formatUsd(cost)}`]
        : []),
  ].join(', ');
}

/** Dollars without exponent notation: up to nine decimals (the nano-dollar), no trailing zeros. */
function formatUsd(usd: number): string {
  const text = usd.toFixed(9).replace(/\.?0+$/, '');
  return text === '' || text === '-' ? '0' : text;
}
