/**
 * The `Model` interface and the message, request and result shapes every provider
 * adapter and the agent loop share. Content parts and tool definitions come from
 * `fino:ai/tool` (which re-exports them from `fino:task`).
 */
import type { ModelMessage, ToolDefinition } from '../../tool/index.ts';

export type { ContentPart, ModelMessage, ToolDefinition } from '../../tool/index.ts';

/** A JSON Schema object, as in {@link ToolDefinition}'s `parameters`. */
export type JsonSchemaObject = ToolDefinition['parameters'];

/** A tool call the model asked for, with arguments already parsed from JSON. */
export interface ToolCall {
  id: string;
  name: string;
  /** Parsed arguments; when the model's JSON was malformed, the raw text (and `argsError` says why). */
  args: unknown;
  /** Set when the argument text was not valid JSON: the tool gets a validation failure, not a crash. */
  argsError?: string;
  /** Set on a call the model's provider ran itself (a {@link ProviderTool}); nothing runs it locally. */
  provider?: string;
}

/**
 * A tool the model's provider runs on its own servers (OpenAI's web search, file search,
 * code interpreter, remote MCP): offered to the model beside function tools, from
 * `openai.tools`. Its calls and results come back in the assistant message as `tool_use`
 * and `tool_result` parts marked with `provider`. A call the server asks approval for
 * (a remote MCP tool) is a tool call named `name` that the agent suspends for approval.
 */
export interface ProviderTool {
  readonly type: 'provider';
  /** The provider that runs it; other providers do not send it (with a warning). */
  readonly provider: ProviderName;
  /** The tool's name among the agent's tools, e.g. `web_search`, `mcp_deepwiki`. */
  readonly name: string;
  /** The tool as the provider's API takes it, e.g. `{ type: 'web_search' }`. */
  readonly wire: Readonly<Record<string, unknown>>;
}

/** Token counts for one request, or summed over a run. */
export interface Usage {
  /** All input tokens, cached ones (read or written) included. */
  inputTokens: number;
  /** All output tokens, reasoning included. */
  outputTokens: number;
  totalTokens: number;
  /** Input tokens read from the provider's prompt cache (part of `inputTokens`). */
  cachedInputTokens?: number;
  /** Input tokens written to the provider's prompt cache (part of `inputTokens`; Anthropic). */
  cacheWriteTokens?: number;
  /** Output tokens spent on reasoning (part of `outputTokens`). */
  reasoningTokens?: number;
  /**
   * What the tokens cost in USD, exact to the nano-dollar, from the agent's `prices` or
   * the shipped table (`'unknown'` when neither prices the model, never 0). Set by the
   * agent on every step and on the run; a model's own result leaves it out.
   */
  cost?: number | 'unknown';
}

/**
 * Why the model stopped: finished its turn, asked for tools, hit the token limit, was
 * filtered, or other. A provider that pauses a long turn (Anthropic `pause_turn`) is
 * continued by its adapter, so a paused turn never reaches the caller (docs/decisions/076).
 */
export type StopReason = 'end' | 'tool_calls' | 'max_tokens' | 'content_filter' | 'other';

/** How the model may use tools: decide itself, must not, must call some tool, or must call the named one. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** The providers whose request bodies {@link GenerateRequest.providerOptions} can extend. */
export type ProviderName = 'openai' | 'anthropic' | 'gemini';

/**
 * How much the model reasons before answering, provider-neutral: OpenAI takes `effort`
 * (`reasoning_effort`), Anthropic `budgetTokens` (extended thinking), Gemini either
 * (`thinkingLevel` / `thinkingBudget`). What a provider cannot use is reported in the
 * result's `warnings`.
 */
export interface ReasoningOptions {
  effort?: 'low' | 'medium' | 'high';
  /** Tokens the model may spend thinking (Anthropic: at least 1024, below `maxTokens`). */
  budgetTokens?: number;
}

/** A structured final answer: the provider's native structured output constrained to `schema`. */
export interface OutputSpec {
  /** JSON Schema of the answer (an object schema). */
  schema: JsonSchemaObject;
  /** A name for the schema where the provider wants one (default `output`). */
  name?: string;
}

/** One request to a model. */
export interface GenerateRequest {
  messages: ModelMessage[];
  system?: string;
  tools?: ToolDefinition[];
  /** Tools the provider runs itself (from `openai.tools`); other providers skip them with a warning. */
  providerTools?: ProviderTool[];
  toolChoice?: ToolChoice;
  maxTokens?: number;
  temperature?: number;
  /** Reasoning effort or budget, for models that reason. */
  reasoning?: ReasoningOptions;
  /** Ask for the answer as JSON matching a schema, through the provider's structured output. */
  output?: OutputSpec;
  /**
   * Extra fields for one provider's request body, keyed by provider name, merged into
   * the body last (so they win), e.g. `{ openai: { seed: 7 }, anthropic: { metadata: { user_id: 'u1' } } }`.
   * Other providers' entries are ignored.
   */
  providerOptions?: Partial<Record<ProviderName, Record<string, unknown>>>;
  signal?: AbortSignal;
}

/** A model's whole answer to one request. */
export interface GenerateResult {
  /** The assistant message, text and `tool_use` parts in the order the model produced them. */
  message: ModelMessage & { role: 'assistant' };
  /** Concatenated text of the message. */
  text: string;
  toolCalls: ToolCall[];
  stopReason: StopReason;
  usage: Usage;
  /** The provider's raw stop reason, for diagnostics. */
  rawStopReason?: string;
  /** What the provider adapter had to change or drop to send this request (absent when nothing). */
  warnings?: ModelWarning[];
  /**
   * With `request.output`: the structured answer parsed from the text (provider schema
   * rewrites undone), not yet validated; absent when the text is not JSON.
   */
  output?: unknown;
  /**
   * What the provider said about the answer itself, keyed by provider name, e.g.
   * `{ openai: { responseId } }` on the Responses API (for `previous_response_id`).
   */
  providerMetadata?: Record<string, Record<string, unknown>>;
  /** The id of the model that answered, set by `fallback()` (otherwise the model asked). */
  model?: string;
  /**
   * Set by `fallback()`: every model tried for this answer, in order — the failed ones
   * with their error (and the usage they reported), the answering one last. `usage` is
   * their sum.
   */
  attempts?: ModelAttempt[];
}

/** One model tried by `fallback()`: its id, why it failed (absent on the answer), what it used. */
export interface ModelAttempt {
  model: string;
  error?: unknown;
  usage?: Usage;
}

/** Something a schema dialect conversion changed or lost, at a JSON Pointer into the schema. */
export interface SchemaWarning {
  /** JSON Pointer into the original schema, `''` for the root (e.g. `/properties/tags`). */
  path: string;
  /** The keyword concerned, e.g. `oneOf`, `required`, `additionalProperties`. */
  keyword: string;
  message: string;
}

/** A converted schema and what the conversion changed or lost. */
export interface SchemaConversion {
  schema: JsonSchemaObject;
  warnings: SchemaWarning[];
}

/** A warning a provider adapter reports on a result: a schema change for a tool, or a dropped input. */
export interface ModelWarning extends Partial<SchemaWarning> {
  /** The tool whose definition was converted, when the warning is about one. */
  tool?: string;
  message: string;
}

/** Events of a streamed answer, in order; `stop` or `error` ends the stream. */
export type StreamEvent =
  | { type: 'text-delta'; text: string }
  /** Reasoning text as it streams (Anthropic thinking, Gemini thought summaries). */
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call-start'; id: string; name: string; index: number }
  | { type: 'tool-call-delta'; id: string; argsText: string; index: number }
  | { type: 'tool-call-end'; call: ToolCall; index: number }
  | { type: 'usage'; usage: Usage }
  | { type: 'stop'; result: GenerateResult }
  | { type: 'error'; error: Error };

/**
 * How many tokens a model takes in and gives out: its context window (input and output
 * together) and the most it writes in one answer. Every built-in adapter sets
 * {@link Model.limits} from a shipped table, overridable with its `limits` option
 * (docs/decisions/142).
 */
export interface ModelLimits {
  /** Tokens of one request's input plus its answer that the model can hold. */
  contextWindow: number;
  /** The most output tokens of one answer. */
  maxOutput: number;
  /**
   * `true` when the model's name is not in the shipped table and these are the
   * conservative defaults (8,192 / 4,096): pass `limits` to the adapter to set the real ones.
   */
  assumed?: boolean;
}

/** A language model: one request in, one assistant turn out, whole or streamed. */
export interface Model {
  /** Provider and model name, e.g. `openai:gpt-4o-mini`. */
  readonly id: string;
  /** The model's context window and output limit (optional for models written by hand). */
  readonly limits?: ModelLimits;
  generate(request: GenerateRequest): Promise<GenerateResult>;
  stream(request: GenerateRequest): AsyncIterable<StreamEvent>;
  /**
   * The request's input tokens as the provider counts them (Anthropic `count_tokens`,
   * Gemini `countTokens`); absent where the provider has no counting endpoint. Call it
   * through `countTokens(model, request)`, which falls back to an estimate.
   */
  countTokens?(request: GenerateRequest): Promise<number>;
}
