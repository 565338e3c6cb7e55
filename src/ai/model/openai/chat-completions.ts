/**
 * OpenAI's Chat Completions API (`POST /chat/completions`), which every OpenAI-compatible
 * server speaks: the request body, and the answer — whole or streamed — read into a turn.
 */
import {
  type AnswerSize,
  type GenerateRequest,
  type GenerateResult,
  isRecord,
  ModelError,
  type ModelWarning,
  type OutputSpec,
  type StopReason,
  type StreamEvent,
  type ToolChoice,
  type Usage,
  usageOf,
} from '../core/index.ts';
import { mergeProviderOptions, warnUnsentProviderTools } from '../provider/index.ts';
import { wireCount } from '../usage/index.ts';
import { type EventStream, streamError } from '../wire/index.ts';
import { toOpenAIMessages } from './chat-messages.ts';
import type { OpenAIOptions } from './openai.ts';
import { openAIFunctionTools, type PreparedTurn, toOpenAIOutputFormat } from './tool.ts';

const PROVIDER = 'openai';

/** The Chat Completions body of a request, with the builder and warnings of its turn. */
export function prepareChat(
  options: OpenAIOptions,
  request: GenerateRequest,
  stream: boolean,
  size: AnswerSize,
): PreparedTurn {
  const warnings: ModelWarning[] = [];
  const body: Record<string, unknown> = {
    model: options.model,
    messages: toOpenAIMessages(request.system, request.messages, warnings),
  };
  const { tools, builder } = openAIFunctionTools(request, options.strict, warnings, size);
  if (tools.length) {
    body.tools = tools;
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
  return { body, builder, warnings };
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

/** Reads a whole completion into the turn. */
export function fromCompletion(body: unknown, { builder, warnings }: PreparedTurn): GenerateResult {
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

/** Streams a completion's chunks into the turn; returns its result. */
export async function* streamCompletion(
  { events, requestId }: EventStream,
  { builder, warnings }: PreparedTurn,
): AsyncGenerator<StreamEvent, GenerateResult> {
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
  return builder.finish(stopReasonOf(raw, calls.size > 0), raw, usage ?? usageOf(), warnings);
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
  const usage = usageOf(
    wireCount(value.prompt_tokens),
    wireCount(value.completion_tokens),
    wireCount(value.total_tokens),
  );
  const prompt = isRecord(value.prompt_tokens_details) ? value.prompt_tokens_details : {};
  const completion = isRecord(value.completion_tokens_details)
    ? value.completion_tokens_details
    : {};
  const cached = wireCount(prompt.cached_tokens);
  const reasoning = wireCount(completion.reasoning_tokens);
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}
