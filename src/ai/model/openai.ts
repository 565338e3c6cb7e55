import { describeValue } from '../../internal/describe-value.ts';
import { checkRequest } from './check-request.ts';
import { guardedStream } from './guarded-stream.ts';
import { isRecord, streamError } from './http.ts';
import { warnUnsentProviderTools } from './message-parts.ts';
import { ModelError } from './model-error.ts';
import { modelLimits } from './model-limits.ts';
import { toOpenAIMessages } from './openai-messages.ts';
import { openaiTools } from './openai-provider-tools.ts';
import { responsesModel } from './openai-responses.ts';
import { openAITurnBuilder, toOpenAIOutputFormat, toOpenAITool } from './openai-tool.ts';
import { apiKey, checkProviderOptions, requireModelName } from './provider-config.ts';
import { mergeProviderOptions } from './provider-options.ts';
import {
  type EventStream,
  type ProviderRequest,
  TRANSPORT_OPTIONS,
  type TransportOptions,
  transport,
} from './transport.ts';
import { type TurnBuilder, usageOf } from './turn-builder.ts';
import type {
  GenerateRequest,
  GenerateResult,
  JsonSchemaObject,
  Model,
  ModelLimits,
  ModelWarning,
  OutputSpec,
  StopReason,
  StreamEvent,
  ToolChoice,
  Usage,
} from './types.ts';

/** Options of {@link openai}. */
export interface OpenAIOptions extends TransportOptions {
  /** Model name, e.g. `gpt-4o-mini`, or the name a compatible server knows (`llama3.2`). */
  model: string;
  /**
   * The API to speak: `'responses'` (`POST /responses`, OpenAI's current API: reasoning
   * kept between tool calls, `openai.tools`) or `'chat'` (`POST /chat/completions`, which
   * every OpenAI-compatible server speaks). Default: `'responses'` for api.openai.com,
   * `'chat'` for any other `baseURL` (docs/decisions/110).
   */
  api?: 'responses' | 'chat';
  /** Defaults to `OPENAI_API_KEY`; optional with a custom `baseURL` (local servers need none). */
  apiKey?: string;
  /** Defaults to `https://api.openai.com/v1`; e.g. `http://127.0.0.1:11434/v1` for Ollama. */
  baseURL?: string;
  /**
   * Strict mode (structured outputs) for tool schemas: `true` for every tool, or the names
   * of the tools to make strict. A tool definition's own `strict: boolean` wins.
   */
  strict?: boolean | readonly string[];
  /** Extra headers sent with every request (e.g. `OpenAI-Organization`). */
  headers?: Record<string, string>;
  /**
   * The body field that carries `maxTokens`: `max_completion_tokens` (default; required by
   * reasoning models), or the deprecated `max_tokens` for compatible servers that know only it.
   */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
  /** `reasoning_effort` for reasoning models when a request's `reasoning.effort` sets none. */
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
  /**
   * Responses API: ask for reasoning summaries (`reasoning.summary`), which arrive as
   * `reasoning` parts and `reasoning-delta` events. Not sent by default.
   */
  reasoningSummary?: 'auto' | 'concise' | 'detailed';
  /**
   * Responses API: let OpenAI keep the response (`store`); default `false`, so nothing is
   * kept there and reasoning goes back encrypted (`include: ['reasoning.encrypted_content']`).
   */
  store?: boolean;
  /**
   * The model's context window and output limit (`model.limits`), over the shipped
   * table's figures for its name; either field alone is enough (docs/decisions/142).
   */
  limits?: Partial<ModelLimits>;
}

const PROVIDER = 'openai';
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const REQUEST_ID = 'x-request-id';
const KNOWN_OPTIONS: Record<keyof OpenAIOptions, true> = {
  ...TRANSPORT_OPTIONS,
  model: true,
  apiKey: true,
  baseURL: true,
  strict: true,
  headers: true,
  maxTokensField: true,
  reasoningEffort: true,
  api: true,
  reasoningSummary: true,
  store: true,
  limits: true,
};

/**
 * A {@link Model} over OpenAI: the Responses API against api.openai.com (reasoning kept
 * between tool calls, built-in tools from `openai.tools`), Chat Completions against any
 * other `baseURL` — so also Ollama, vLLM, llama.cpp and LM Studio; `api` picks either
 * explicitly (docs/decisions/110). Retries 429 and 5xx with backoff, honouring
 * `retry-after`; other failures are {@link ModelError}s. Schema rewrites (strict mode)
 * are reported in the result's `warnings`.
 *
 * @example
 * ```ts
 * import { openai } from 'fino:ai/model';
 *
 * const model = openai({ model: 'llama3.2', baseURL: 'http://127.0.0.1:11434/v1' });
 * const result = await model.generate({ messages: [{ role: 'user', content: 'Say hi.' }] });
 * console.log(result.text);
 * ```
 */
export function openai(options: OpenAIOptions): Model {
  checkProviderOptions(PROVIDER, options, KNOWN_OPTIONS, {
    organization: '"headers" ({ headers: { \'OpenAI-Organization\': … } })',
  });
  requireModelName(PROVIDER, options);
  const baseURL = (options.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const customBase = options.baseURL !== undefined && baseURL !== DEFAULT_BASE_URL;
  const api = options.api ?? (customBase ? 'chat' : 'responses');
  if (api !== 'responses' && api !== 'chat') {
    throw new TypeError(
      `openai(options).api: expected 'responses' or 'chat', received ${describeValue(api)}`,
    );
  }
  if (options.store !== undefined && typeof options.store !== 'boolean') {
    throw new TypeError(
      `openai(options).store: expected a boolean, received ${describeValue(options.store)}`,
    );
  }
  const summary = options.reasoningSummary;
  if (summary !== undefined && !['auto', 'concise', 'detailed'].includes(summary)) {
    throw new TypeError(
      `openai(options).reasoningSummary: expected 'auto', 'concise' or 'detailed', received ${describeValue(summary)}`,
    );
  }
  const limits = modelLimits(PROVIDER, options.model, options.limits);
  const headers = () => {
    const key = apiKey(PROVIDER, options.apiKey, 'OPENAI_API_KEY', !customBase);
    return { ...(key ? { authorization: `Bearer ${key}` } : {}), ...options.headers };
  };
  if (api === 'responses') {
    const http = transport({ provider: PROVIDER, requestIdHeader: REQUEST_ID }, options);
    return { ...responsesModel(options, { http, url: `${baseURL}/responses`, headers }), limits };
  }
  const http = transport(
    { provider: PROVIDER, requestIdHeader: REQUEST_ID, endMarker: '[DONE]' },
    options,
  );

  const prepared = (request: GenerateRequest, stream: boolean) => {
    checkRequest(PROVIDER, request);
    const { body, ...rest } = prepare(options, request, stream);
    const call: ProviderRequest = {
      url: `${baseURL}/chat/completions`,
      headers: headers(),
      body,
      signal: request.signal,
    };
    return { call, ...rest };
  };

  return {
    id: `${PROVIDER}:${options.model}`,
    limits,
    async generate(request) {
      const { call, builder, warnings } = prepared(request, false);
      return fromCompletion(await http.json(call), builder, warnings);
    },
    stream(request) {
      return guardedStream(request?.signal, async function* () {
        const { call, builder, warnings } = prepared(request, true);
        yield* streamCompletion(await http.events(call), builder, warnings);
      });
    },
  };
}

/** Tools OpenAI's servers run for the model (Responses API): `openai.tools.webSearch()`, … */
openai.tools = openaiTools;

interface Prepared {
  body: Record<string, unknown>;
  builder: TurnBuilder;
  warnings: ModelWarning[];
}

function prepare(options: OpenAIOptions, request: GenerateRequest, stream: boolean): Prepared {
  const warnings: ModelWarning[] = [];
  const strictSchemas = new Map<string, JsonSchemaObject>();
  const body: Record<string, unknown> = {
    model: options.model,
    messages: toOpenAIMessages(request.system, request.messages, warnings),
  };
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => {
      const wire = toOpenAITool(tool, { strict: options.strict, warnings });
      if (wire.function.strict) strictSchemas.set(tool.name, tool.parameters);
      return wire;
    });
    if (request.toolChoice !== undefined) body.tool_choice = toolChoiceOf(request.toolChoice);
  }
  warnUnsentProviderTools(
    "Chat Completions (use openai({ api: 'responses' }))",
    undefined,
    request,
    warnings,
  );
  if (request.maxTokens !== undefined) {
    body[options.maxTokensField ?? 'max_completion_tokens'] = request.maxTokens;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  const effort = request.reasoning?.effort ?? options.reasoningEffort;
  if (effort !== undefined) body.reasoning_effort = effort;
  if (request.reasoning?.budgetTokens !== undefined) {
    warnings.push({
      message:
        'reasoning.budgetTokens not sent: Chat Completions takes reasoning.effort, not a token budget',
    });
  }
  if (request.output) body.response_format = responseFormatOf(request.output, warnings);
  if (stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } });
  mergeProviderOptions(PROVIDER, body, request);
  return { body, builder: openAITurnBuilder(strictSchemas, request.output), warnings };
}

/** `response_format` for a structured answer: the schema in strict mode, its rewrites reported. */
function responseFormatOf(output: OutputSpec, warnings: ModelWarning[]) {
  return { type: 'json_schema', json_schema: toOpenAIOutputFormat(output, warnings) };
}

function toolChoiceOf(choice: ToolChoice): unknown {
  return typeof choice === 'string'
    ? choice
    : { type: 'function', function: { name: choice.name } };
}

function fromCompletion(
  body: unknown,
  builder: TurnBuilder,
  warnings: ModelWarning[],
): GenerateResult {
  const choice = isRecord(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (!isRecord(choice) || !isRecord(choice.message)) {
    throw new ModelError(`${PROVIDER}: the response has no choices[0].message`, {
      provider: PROVIDER,
      body,
    });
  }
  const { message } = choice;
  if (typeof message.content === 'string') builder.addText(message.content);
  if (typeof message.refusal === 'string') builder.addText(message.refusal);
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  calls.forEach((call: unknown, i) => {
    if (!isRecord(call) || !isRecord(call.function)) return;
    builder.startToolCall(i, String(call.id ?? `call_${i}`), String(call.function.name ?? ''));
    builder.appendToolArgs(i, argumentsText(call.function.arguments));
    builder.endToolCall(i);
  });
  const raw = typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined;
  const refused = typeof message.refusal === 'string';
  return builder.finish(
    refused ? 'content_filter' : stopReasonOf(raw, calls.length > 0),
    raw,
    usageFrom(isRecord(body) ? body.usage : undefined) ?? usageOf(),
    warnings,
  );
}

async function* streamCompletion(
  { events, requestId }: EventStream,
  builder: TurnBuilder,
  warnings: ModelWarning[],
): AsyncGenerator<StreamEvent> {
  let raw: string | undefined;
  let finished = false;
  let usage: Usage | undefined;
  const calls = new Map<number, { id: string; key: string }>();
  for await (const chunk of events) {
    if (isRecord(chunk.error)) throw streamError(PROVIDER, chunk, requestId);
    usage = usageFrom(chunk.usage) ?? usage;
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isRecord(choice)) continue;
    const delta = isRecord(choice.delta) ? choice.delta : {};
    if (typeof delta.content === 'string') {
      const event = builder.addText(delta.content);
      if (event) yield event;
    }
    for (const [position, call] of (Array.isArray(delta.tool_calls)
      ? delta.tool_calls
      : []
    ).entries()) {
      if (!isRecord(call)) continue;
      const index = typeof call.index === 'number' ? call.index : position;
      const fn = isRecord(call.function) ? call.function : {};
      const open = calls.get(index);
      // Some compatible servers reuse one index (or omit it) for several calls: a new id starts a new call.
      const renamed = open !== undefined && typeof call.id === 'string' && call.id !== open.id;
      if (renamed) {
        const end = builder.endToolCall(open.key);
        if (end) yield end;
      }
      if (open === undefined || renamed) {
        const id = typeof call.id === 'string' ? call.id : `call_${index}`;
        const key = `${index}:${id}`;
        calls.set(index, { id, key });
        yield builder.startToolCall(key, id, String(fn.name ?? ''));
      }
      const key = calls.get(index)!.key;
      const event = builder.appendToolArgs(key, argumentsText(fn.arguments));
      if (event) yield event;
    }
    if (typeof choice.finish_reason === 'string') {
      raw = choice.finish_reason;
      finished = true;
      yield* builder.endOpenToolCalls();
    }
  }
  if (!finished) {
    throw new ModelError(`${PROVIDER}: the stream ended before the model finished its turn`, {
      provider: PROVIDER,
      retryable: true,
    });
  }
  const total = usage ?? usageOf();
  yield { type: 'usage', usage: total };
  yield {
    type: 'stop',
    result: builder.finish(stopReasonOf(raw, calls.size > 0), raw, total, warnings),
  };
}

/** Arguments arrive as JSON text; some compatible servers send an object instead. */
function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

function stopReasonOf(raw: string | undefined, hasToolCalls: boolean): StopReason {
  if (hasToolCalls && (raw === 'stop' || raw === 'tool_calls' || raw === 'function_call')) {
    return 'tool_calls';
  }
  switch (raw) {
    case 'stop':
      return 'end';
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

function usageFrom(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const number = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const usage = usageOf(
    number(value.prompt_tokens),
    number(value.completion_tokens),
    number(value.total_tokens),
  );
  const prompt = isRecord(value.prompt_tokens_details) ? value.prompt_tokens_details : {};
  const completion = isRecord(value.completion_tokens_details)
    ? value.completion_tokens_details
    : {};
  const cached = number(prompt.cached_tokens);
  const reasoning = number(completion.reasoning_tokens);
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}
