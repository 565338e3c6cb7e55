/**
 * The token counts a provider reports, trusted only as far as they are counts
 * (decision 176): every adapter reads each count with {@link wireCount}, and the provider
 * skeleton settles the result's usage with {@link settleUsage} — a count that is not a
 * non-negative safe integer is replaced by the estimate, with a warning, so a hostile or
 * buggy server cannot switch a token budget off with `-1000000` or `1e308`.
 */
import type { GenerateRequest, GenerateResult, Usage } from '../core/index.ts';
import { isTokenCount } from './count-tokens.ts';
import { estimateMessageTokens, estimateTokens } from './token-estimate.ts';

/**
 * A count as the provider sent it: the number when it is a token count (a non-negative
 * safe integer), `undefined` when absent (`undefined` or `null`), and `NaN` for anything
 * else — so a sum made with it is not a count either, and {@link settleUsage} replaces it.
 */
export function wireCount(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  return isTokenCount(value) ? value : Number.NaN;
}

const PARTS = ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;

/**
 * Makes `result.usage` counts a budget can trust: an `inputTokens` or `outputTokens` that
 * is not a token count becomes the estimate (of the request, of the answer's message), a
 * part (cached, cache-write, reasoning) that is not one is left out, and `totalTokens` is
 * at least their sum. Each replacement adds a warning naming the count.
 */
export function settleUsage(
  result: GenerateResult,
  request: GenerateRequest,
  modelId: string,
): void {
  const usage: Usage = { ...result.usage };
  const notes: string[] = [];
  const estimate = (field: 'inputTokens' | 'outputTokens', estimated: () => number) => {
    if (isTokenCount(usage[field])) return;
    usage[field] = estimated();
    notes.push(`${field} is estimated (${usage[field]})`);
  };
  estimate('inputTokens', () => estimateTokens(request, modelId));
  estimate('outputTokens', () => estimateMessageTokens(result.message, modelId));
  for (const part of PARTS) {
    if (usage[part] === undefined || isTokenCount(usage[part])) continue;
    delete usage[part];
    notes.push(`${part} is left out`);
  }
  const sum = usage.inputTokens + usage.outputTokens;
  if (!isTokenCount(usage.totalTokens) || usage.totalTokens < sum) {
    usage.totalTokens = sum;
    notes.push(`totalTokens is their sum (${sum})`);
  }
  if (notes.length === 0) return;
  result.usage = usage;
  const message = `usage: the provider reported token counts that are not non-negative integers (or a total below its parts): ${notes.join(', ')}`;
  result.warnings = [...(result.warnings ?? []), { message }];
}
