/**
 * A Responses API answer read into one assistant turn, whole (`output` items) or from
 * its typed stream events. Each part keeps the output item it came from
 * (`providerMetadata.openai.item`), so the turn goes back exactly as it was produced.
 */
import {
  type ContentPart,
  type GenerateResult,
  isRecord,
  ModelError,
  type ModelWarning,
  type StopReason,
  type StreamEvent,
  type TurnBuilder,
  type Usage,
  usageOf,
} from '../core/index.ts';
import { wireCount } from '../usage/index.ts';
import { type EventStream, streamError } from '../wire/index.ts';
import { mcpToolName } from './provider-tools.ts';
import { parsedArgs, serverCallParts, stringOf } from './server-calls.ts';
import type { PreparedTurn } from './tool.ts';

type Item = Record<string, unknown>;
type Metadata = { openai: { item: Item } };

const PROVIDER = 'openai';

/** What the turn saw besides its parts: whether the model refused. */
interface TurnFlags {
  refused: boolean;
}

/** Reads a whole (non-streamed) response into `builder` and finishes the turn. */
export function fromResponse(body: unknown, { builder, warnings }: PreparedTurn): GenerateResult {
  if (!isRecord(body) || !Array.isArray(body.output)) {
    throw new ModelError(`${PROVIDER}: the response has no output array`, {
      provider: PROVIDER,
      body,
    });
  }
  if (body.status === 'failed') throw failedResponse(body, undefined);
  const flags: TurnFlags = { refused: false };
  for (const item of body.output) if (isRecord(item)) addWholeItem(item, builder, flags);
  return finishTurn(body, builder, flags, warnings);
}

function addWholeItem(item: Item, builder: TurnBuilder, flags: TurnFlags): void {
  switch (item.type) {
    case 'message': {
      const meta = metadataOf(item);
      for (const part of Array.isArray(item.content) ? item.content : []) {
        builder.addText(messagePartText(part, flags), meta);
      }
      return;
    }
    case 'reasoning':
      builder.addReasoning(reasoningPart(item));
      return;
    case 'function_call':
    case 'mcp_approval_request': {
      const key = String(item.id ?? item.call_id);
      const call = callOf(item);
      builder.startToolCall(key, call.id, call.name, metadataOf(item));
      builder.appendToolArgs(key, call.argsText);
      builder.endToolCall(key);
      return;
    }
    default:
      for (const part of serverCallParts(item)) builder.addPart(part);
  }
}

/** Streams a response's typed events into the turn (text, reasoning and call deltas); returns its result. */
export async function* streamResponse(
  stream: EventStream,
  { builder, warnings }: PreparedTurn,
): AsyncGenerator<StreamEvent, GenerateResult> {
  const { requestId } = stream;
  const flags: TurnFlags = { refused: false };
  const metas = new Map<number, Metadata>();
  const reasoning = new Map<number, ContentPart & { type: 'reasoning' }>();
  const streamed = new Set<number>();
  let final: Item | undefined;
  for await (const event of stream.events) {
    const index = typeof event.output_index === 'number' ? event.output_index : -1;
    const item = isRecord(event.item) ? event.item : undefined;
    let out: StreamEvent | undefined;
    switch (event.type) {
      case 'response.output_item.added':
        if (item?.type === 'message') metas.set(index, metadataOf(item));
        else if (item?.type === 'reasoning') {
          const part = reasoningPart(item);
          reasoning.set(index, part);
          out = builder.startReasoning(index, part);
        } else if (item?.type === 'function_call') {
          const call = callOf(item);
          const meta = metadataOf(item);
          metas.set(index, meta);
          out = builder.startToolCall(index, call.id, call.name, meta);
        }
        break;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (event.type === 'response.refusal.delta') flags.refused = true;
        streamed.add(index);
        out = builder.addText(stringOf(event.delta), metaFor(metas, index, event));
        break;
      case 'response.reasoning_summary_part.added':
        if (Number(event.summary_index) > 0) out = builder.appendReasoning(index, '\n\n');
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        out = builder.appendReasoning(index, stringOf(event.delta));
        break;
      case 'response.function_call_arguments.delta':
        streamed.add(index);
        out = builder.appendToolArgs(index, stringOf(event.delta));
        break;
      case 'response.output_item.done':
        if (item) yield* itemDone(item, index, { builder, flags, metas, reasoning, streamed });
        break;
      case 'response.completed':
      case 'response.incomplete':
        final = isRecord(event.response) ? event.response : {};
        break;
      case 'response.failed':
        throw failedResponse(isRecord(event.response) ? event.response : {}, requestId);
      case 'error': {
        // The event is the error itself: `{ type: 'error', code, message, param }`.
        const error = { message: event.message, code: event.code, param: event.param };
        throw streamError(PROVIDER, { error }, requestId);
      }
    }
    if (out) yield out;
    if (final) break;
  }
  if (!final) {
    throw new ModelError(`${PROVIDER}: the stream ended before the model finished its turn`, {
      provider: PROVIDER,
      retryable: true,
      requestId,
    });
  }
  yield* builder.endOpenToolCalls();
  return finishTurn(final, builder, flags, warnings);
}

interface StreamState {
  builder: TurnBuilder;
  flags: TurnFlags;
  metas: Map<number, Metadata>;
  reasoning: Map<number, ContentPart & { type: 'reasoning' }>;
  /** Output items whose text or arguments arrived as deltas. */
  streamed: Set<number>;
}

/** An output item is complete: its final form replaces the one kept so far. */
function* itemDone(item: Item, index: number, state: StreamState): Generator<StreamEvent> {
  const { builder, flags } = state;
  // The final item replaces the one kept so far, or is kept for the first time (below).
  if (state.metas.has(index) || state.reasoning.has(index))
    builder.size.addValue('output item', item);
  switch (item.type) {
    case 'message': {
      const meta = metaFor(state.metas, index, item);
      meta.openai.item = item;
      if (state.streamed.has(index)) return;
      for (const part of Array.isArray(item.content) ? item.content : []) {
        const out = builder.addText(messagePartText(part, flags), meta);
        if (out) yield out;
      }
      return;
    }
    case 'reasoning': {
      const part = state.reasoning.get(index);
      if (!part) {
        builder.addReasoning(reasoningPart(item));
        return;
      }
      part.providerMetadata = metadataOf(item);
      const whole = reasoningPart(item).text;
      if (part.text === '' && whole !== '') {
        const out = builder.appendReasoning(index, whole);
        if (out) yield out;
      }
      return;
    }
    case 'function_call':
    case 'mcp_approval_request': {
      const call = callOf(item);
      // The call's final item (arguments complete) is what goes back.
      const meta = state.metas.get(index);
      if (meta) meta.openai.item = item;
      if (!builder.isOpen(index)) {
        yield builder.startToolCall(index, call.id, call.name, metadataOf(item));
      }
      const out = state.streamed.has(index)
        ? undefined
        : builder.appendToolArgs(index, call.argsText);
      if (out) yield out;
      const end = builder.endToolCall(index);
      if (end) yield end;
      return;
    }
    default:
      for (const part of serverCallParts(item)) builder.addPart(part);
  }
}

function metaFor(metas: Map<number, Metadata>, index: number, event: Item): Metadata {
  let meta = metas.get(index);
  if (!meta) {
    meta = { openai: { item: { type: 'message', id: event.item_id ?? event.id } } };
    metas.set(index, meta);
  }
  return meta;
}

function metadataOf(item: Item): Metadata {
  return { openai: { item } };
}

/** A content part of a `message` item as text; a refusal is text too, and flags the turn. */
function messagePartText(part: unknown, flags: TurnFlags): string {
  if (!isRecord(part)) return '';
  if (part.type === 'refusal') {
    flags.refused = true;
    return stringOf(part.refusal);
  }
  return stringOf(part.text);
}

/** A reasoning item as a reasoning part: its summaries (else its raw text), the item kept whole. */
function reasoningPart(item: Item): ContentPart & { type: 'reasoning' } {
  const texts = (list: unknown) =>
    (Array.isArray(list) ? list : []).map((entry) => (isRecord(entry) ? stringOf(entry.text) : ''));
  const summary = texts(item.summary).filter((t) => t !== '');
  const text = summary.length > 0 ? summary.join('\n\n') : texts(item.content).join('');
  return { type: 'reasoning', text, provider: PROVIDER, providerMetadata: metadataOf(item) };
}

/** A function call, or a remote MCP approval request as a call of the MCP provider tool. */
function callOf(item: Item): { id: string; name: string; argsText: string } {
  if (item.type === 'mcp_approval_request') {
    const args = { tool: stringOf(item.name), arguments: parsedArgs(item.arguments) };
    return {
      id: stringOf(item.id),
      name: mcpToolName(stringOf(item.server_label)),
      argsText: JSON.stringify(args),
    };
  }
  return {
    id: stringOf(item.call_id) || stringOf(item.id),
    name: stringOf(item.name),
    argsText: typeof item.arguments === 'string' ? item.arguments : '',
  };
}

/** Ends the turn from the final response object: its status, incomplete reason and usage. */
function finishTurn(
  response: Item,
  builder: TurnBuilder,
  flags: TurnFlags,
  warnings: ModelWarning[],
): GenerateResult {
  const details = isRecord(response.incomplete_details) ? response.incomplete_details : {};
  const status = stringOf(response.status) || undefined;
  const raw = stringOf(details.reason) || status;
  const result = builder.finish('end', raw, usageFrom(response.usage), warnings);
  result.stopReason = stopReasonOf(
    status,
    stringOf(details.reason),
    flags,
    result.toolCalls.length,
  );
  if (typeof response.id === 'string') {
    result.providerMetadata = { openai: { responseId: response.id } };
  }
  return result;
}

/**
 * `incomplete` with `max_output_tokens` is `max_tokens`, with `content_filter` (or a
 * refusal) `content_filter`; a finished turn with calls is `tool_calls`, else `end`.
 */
function stopReasonOf(
  status: string | undefined,
  incompleteReason: string,
  flags: TurnFlags,
  calls: number,
): StopReason {
  if (status === 'incomplete') {
    if (incompleteReason === 'max_output_tokens') return 'max_tokens';
    if (incompleteReason === 'content_filter') return 'content_filter';
    return 'other';
  }
  if (flags.refused) return 'content_filter';
  if (calls > 0) return 'tool_calls';
  return status === undefined || status === 'completed' ? 'end' : 'other';
}

/** Usage with cached input, cache-write and reasoning tokens when the response reports them. */
function usageFrom(value: unknown): Usage {
  if (!isRecord(value)) return usageOf();
  const usage = usageOf(
    wireCount(value.input_tokens),
    wireCount(value.output_tokens),
    wireCount(value.total_tokens),
  );
  const input = isRecord(value.input_tokens_details) ? value.input_tokens_details : {};
  const output = isRecord(value.output_tokens_details) ? value.output_tokens_details : {};
  const cached = wireCount(input.cached_tokens);
  const written = wireCount(input.cache_write_tokens);
  const reasoning = wireCount(output.reasoning_tokens);
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (written !== undefined && written !== 0) usage.cacheWriteTokens = written;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

/** A `failed` response's error as a {@link ModelError} (server errors and rate limits retryable). */
function failedResponse(response: Item, requestId: string | undefined): ModelError {
  const error = isRecord(response.error) ? response.error : {};
  const code = stringOf(error.code) || undefined;
  const message = stringOf(error.message) || 'the response failed';
  return new ModelError(
    `${PROVIDER}: the response failed: ${message}${code ? ` (${code})` : ''}${requestId ? ` (request id ${requestId})` : ''}`,
    {
      provider: PROVIDER,
      providerMessage: message,
      code,
      requestId,
      retryable: code === 'server_error' || code === 'rate_limit_exceeded',
      body: response,
    },
  );
}
