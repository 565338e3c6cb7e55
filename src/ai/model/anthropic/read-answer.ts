/**
 * Reading an Anthropic Messages answer into a turn: a whole response's content blocks, or
 * a stream's events; its stop reason and usage.
 */
import {
  type ContentPart,
  isRecord,
  ModelError,
  type StopReason,
  type StreamEvent,
  type TurnBuilder,
  type Usage,
  usageOf,
} from '../core/index.ts';
import { wireCount } from '../usage/index.ts';
import { type EventStream, streamError } from '../wire/index.ts';
import type { ReadTurn } from './paused-turn.ts';
import { StreamedBlocks } from './streamed-blocks.ts';

const PROVIDER = 'anthropic';

type ReasoningPart = Extract<ContentPart, { type: 'reasoning' }>;

/** Adds one response's blocks to the turn; returns its raw stop reason, usage and blocks. */
export function readMessage(body: unknown, builder: TurnBuilder): ReadTurn {
  if (!isRecord(body) || !Array.isArray(body.content)) {
    throw new ModelError(`${PROVIDER}: the response has no content array`, {
      provider: PROVIDER,
      body,
    });
  }
  body.content.forEach((block: unknown, i) => {
    if (!isRecord(block)) return;
    if (block.type === 'text' && typeof block.text === 'string') builder.addText(block.text);
    else if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      builder.addReasoning(reasoningOf(block));
    } else if (block.type === 'tool_use') {
      const key = `${i}:${String(block.id)}`;
      builder.startToolCall(key, String(block.id), String(block.name));
      builder.appendToolArgs(key, JSON.stringify(block.input ?? {}));
      builder.endToolCall(key);
    }
  });
  const raw = typeof body.stop_reason === 'string' ? body.stop_reason : undefined;
  return { raw, usage: usageFrom(body.usage), blocks: body.content.filter(isRecord) };
}

/** A thinking or redacted_thinking block as a reasoning part, its fields unchanged. */
function reasoningOf(block: Record<string, unknown>): ReasoningPart {
  const part: ReasoningPart = { type: 'reasoning', text: '', provider: PROVIDER };
  if (block.type === 'redacted_thinking') {
    part.redacted = typeof block.data === 'string' ? block.data : '';
    return part;
  }
  if (typeof block.thinking === 'string') part.text = block.thinking;
  if (typeof block.signature === 'string') part.signature = block.signature;
  return part;
}

/** Streams one response's events into the turn; returns its raw stop reason and usage. */
export async function* streamMessage(
  { events, requestId }: EventStream,
  builder: TurnBuilder,
): AsyncGenerator<StreamEvent, ReadTurn> {
  let usage = usageOf();
  let raw: string | undefined;
  const wholeInputs = new Map<number, string>();
  const blocks = new StreamedBlocks(builder.size);
  for await (const event of events) {
    blocks.apply(event);
    switch (event.type) {
      case 'message_start':
        if (isRecord(event.message)) usage = usageFrom(event.message.usage, usage);
        break;
      case 'content_block_start': {
        const block = isRecord(event.content_block) ? event.content_block : {};
        const index = Number(event.index);
        let out: StreamEvent | undefined;
        if (block.type === 'tool_use') {
          out = builder.startToolCall(index, String(block.id), String(block.name));
          // The API sends `input: {}` here and the JSON in deltas; some gateways send it whole.
          if (isRecord(block.input) && Object.keys(block.input).length > 0) {
            wholeInputs.set(index, JSON.stringify(block.input));
          }
        } else if (block.type === 'text' && typeof block.text === 'string') {
          out = builder.addText(block.text);
        } else if (block.type === 'thinking' || block.type === 'redacted_thinking') {
          out = builder.startReasoning(index, reasoningOf(block));
        }
        if (out) yield out;
        break;
      }
      case 'content_block_delta': {
        const delta = isRecord(event.delta) ? event.delta : {};
        const index = Number(event.index);
        let out: StreamEvent | undefined;
        if (delta.type === 'text_delta' && typeof delta.text === 'string') {
          out = builder.addText(delta.text);
        } else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          wholeInputs.delete(index);
          out = builder.appendToolArgs(index, delta.partial_json);
        } else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') {
          out = builder.appendReasoning(index, delta.thinking);
        } else if (delta.type === 'signature_delta' && typeof delta.signature === 'string') {
          builder.signReasoning(index, delta.signature);
        }
        if (out) yield out;
        break;
      }
      case 'content_block_stop': {
        const whole = wholeInputs.get(Number(event.index));
        const args =
          whole === undefined ? undefined : builder.appendToolArgs(Number(event.index), whole);
        if (args) yield args;
        const end = builder.endToolCall(Number(event.index));
        if (end) yield end;
        break;
      }
      case 'message_delta':
        if (isRecord(event.delta) && typeof event.delta.stop_reason === 'string') {
          raw = event.delta.stop_reason;
        }
        usage = usageFrom(event.usage, usage);
        break;
      case 'message_stop':
        yield* builder.endOpenToolCalls();
        return { raw, usage, blocks: blocks.done() };
      case 'error':
        throw streamError(PROVIDER, event, requestId);
    }
  }
  throw new ModelError(`${PROVIDER}: the stream ended before message_stop`, {
    provider: PROVIDER,
    retryable: true,
  });
}

export function stopReasonOf(raw: string | undefined): StopReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return 'end';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
      return 'max_tokens';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}

/**
 * Usage from an Anthropic `usage` object, over `previous` (stream events carry some
 * counts only). Input tokens include cache reads and writes, which Anthropic counts
 * apart and which are also reported on their own.
 */
function usageFrom(value: unknown, previous: Usage = usageOf()): Usage {
  if (!isRecord(value)) return previous;
  const has = (key: string) => wireCount(value[key]) !== undefined;
  const count = (key: string) => wireCount(value[key]) ?? 0;
  const hasInput = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'].some(
    has,
  );
  const input = hasInput
    ? count('input_tokens') +
      count('cache_creation_input_tokens') +
      count('cache_read_input_tokens')
    : previous.inputTokens;
  const output = has('output_tokens') ? count('output_tokens') : previous.outputTokens;
  const usage: Usage = { ...previous, ...usageOf(input, output) };
  if (has('cache_read_input_tokens')) usage.cachedInputTokens = count('cache_read_input_tokens');
  if (has('cache_creation_input_tokens')) {
    usage.cacheWriteTokens = count('cache_creation_input_tokens');
  }
  const details = isRecord(value.output_tokens_details) ? value.output_tokens_details : {};
  const thinking = wireCount(details.thinking_tokens);
  if (thinking !== undefined) usage.reasoningTokens = thinking;
  return usage;
}
