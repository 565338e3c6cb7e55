/**
 * `fino:ai/model`: the `Model` interface and what speaks it — provider adapters for
 * OpenAI (the Responses API, and Chat Completions for any compatible server), Anthropic
 * Messages and Gemini, their schema dialects and tool formats, `fallback()` (a model
 * that falls over to the next on the provider's faults) and `scriptedModel` for tests —
 * with what a request takes and costs: token counting (`countTokens`, a provider's own
 * count or the estimate) and estimates, model limits (context window, output tokens),
 * prices and costs of usage.
 *
 * Its rooms, each opening with what it holds and may import: `core/` (the contract:
 * types, `ModelError`, the turn builder), `wire/` (HTTP to a provider), `usage/` (tokens,
 * limits, prices, costs), `provider/` (the skeleton every adapter is built on), and one
 * room per provider (`openai/`, `anthropic/`, `gemini/`), which never import each other.
 *
 * @module
 */

export type { ToolResultObject } from '../tool/index.ts';
export {
  type AnthropicOptions,
  type AnthropicTool,
  anthropic,
  toAnthropicTool,
} from './anthropic/index.ts';
export type {
  ContentPart,
  GenerateRequest,
  GenerateResult,
  JsonSchemaObject,
  Model,
  ModelAttempt,
  ModelLimits,
  ModelMessage,
  ModelWarning,
  OutputSpec,
  ProviderName,
  ProviderTool,
  ReasoningOptions,
  SchemaConversion,
  SchemaWarning,
  StopReason,
  StreamEvent,
  ToolCall,
  ToolChoice,
  ToolDefinition,
  Usage,
} from './core/index.ts';
export { isModel, ModelError, type ModelErrorDetails } from './core/index.ts';
export { type FallbackOptions, fallback } from './fallback.ts';
export {
  type GeminiOptions,
  type GeminiTool,
  gemini,
  toGeminiSchema,
  toGeminiTool,
} from './gemini/index.ts';
export {
  fromOpenAIStrictArgs,
  type McpToolOptions,
  type OpenAIOptions,
  type OpenAITool,
  type OpenAIToolOptions,
  openai,
  toOpenAIStrictSchema,
  toOpenAITool,
  type WebSearchOptions,
} from './openai/index.ts';
export { isProviderFault } from './provider-fault.ts';
export * from './scripted-model.ts';
export {
  addCosts,
  checkPrices,
  countTokens,
  describeUsage,
  estimateMessageTokens,
  estimateTokens,
  findPrice,
  MAX_PRICE_ENTRIES,
  type ModelPrice,
  modelFamily,
  PRICES_WRITTEN,
  type Prices,
  priceUsage,
  SHIPPED_PRICES,
  type TokenCount,
  type TokenRates,
  usageCost,
} from './usage/index.ts';
export type { RetryOptions, TimeoutOptions, TransportOptions } from './wire/index.ts';
