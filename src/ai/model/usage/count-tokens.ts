/**
 * `countTokens(model, request)`: the provider's own count where it has a counting
 * endpoint, otherwise the estimate (docs/decisions/143).
 */
import { describeValue } from '../../../internal/describe-value.ts';
import type { GenerateRequest, Model } from '../core/index.ts';
import { estimateTokens } from './token-estimate.ts';

/** How many input tokens a request takes, and who counted them. */
export interface TokenCount {
  inputTokens: number;
  /** `provider`: the provider's counting endpoint; `estimate`: {@link estimateTokens}. */
  source: 'provider' | 'estimate';
}

/**
 * The input tokens of `request` for `model`: counted by the provider when the model has
 * `countTokens` (Anthropic's `count_tokens`, Gemini's `countTokens`: one HTTP request,
 * with the model's retries and timeouts), otherwise {@link estimateTokens} (OpenAI's
 * models are counted with their own tokenizer, so the estimate is close). A failure of
 * the provider's endpoint is its `ModelError`: nothing falls back to the estimate silently.
 *
 * @example
 * ```ts
 * import { countTokens, scriptedModel } from 'fino:ai/model';
 *
 * const model = scriptedModel([], { id: 'openai:gpt-4o' });
 * const count = await countTokens(model, { messages: [{ role: 'user', content: 'Hello there!' }] });
 * console.log(count); // { inputTokens: 9, source: 'estimate' }
 * ```
 */
export async function countTokens(model: Model, request: GenerateRequest): Promise<TokenCount> {
  if (typeof model !== 'object' || model === null || typeof model.id !== 'string') {
    throw new TypeError(
      `countTokens(model): expected a Model (with an id), received ${describeValue(model)}`,
    );
  }
  if (typeof model.countTokens !== 'function') {
    return { inputTokens: estimateTokens(request, model), source: 'estimate' };
  }
  const counted: unknown = await model.countTokens(request);
  if (!isTokenCount(counted)) {
    throw new TypeError(
      `countTokens: ${model.id}'s countTokens(request): expected a non-negative integer, received ${describeValue(counted)}`,
    );
  }
  return { inputTokens: counted, source: 'provider' };
}

/** A count a provider may report: a non-negative safe integer. */
export function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
