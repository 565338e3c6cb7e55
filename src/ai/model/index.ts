/**
 * `fino:ai/model`: the `Model` interface, provider adapters (OpenAI-compatible Chat
 * Completions, Anthropic Messages), their schema dialects, and `scriptedModel` for tests.
 *
 * @module
 */

export type { ToolResultObject } from '../tool/index.ts';
export { type AnthropicOptions, anthropic } from './anthropic.ts';
export { type AnthropicTool, toAnthropicTool } from './anthropic-tool.ts';
export { addCosts, priceUsage, usageCost } from './cost.ts';
export { countTokens, type TokenCount } from './count-tokens.ts';
export { describeUsage } from './describe-usage.ts';
export { type GeminiOptions, gemini } from './gemini.ts';
export { toGeminiSchema } from './gemini-schema.ts';
export { type GeminiTool, toGeminiTool } from './gemini-tool.ts';
export type { RetryOptions } from './http.ts';
export { ModelError, type ModelErrorDetails } from './model-error.ts';
export { type OpenAIOptions, openai } from './openai.ts';
export type { McpToolOptions, WebSearchOptions } from './openai-provider-tools.ts';
export { fromOpenAIStrictArgs, toOpenAIStrictSchema } from './openai-strict-schema.ts';
export { type OpenAITool, type OpenAIToolOptions, toOpenAITool } from './openai-tool.ts';
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
export * from './scripted-model.ts';
export type { TimeoutOptions } from './timeouts.ts';
export { estimateMessageTokens, estimateTokens } from './token-estimate.ts';
export type { TransportOptions } from './transport.ts';
export type * from './types.ts';
