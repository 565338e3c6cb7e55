import { toAnthropicMessages } from './anthropic-messages.ts';
import { type AnthropicTool, toAnthropicTool } from './anthropic-tool.ts';
import { checkRequest } from './check-request.ts';
import { countFromAnswer } from './count-tokens.ts';
import { guardedStream } from './guarded-stream.ts';
import { isRecord, streamError } from './http.ts';
import { warnUnsentProviderTools } from './message-parts.ts';
import { ModelError } from './model-error.ts';
import { modelLimits } from './model-limits.ts';
import { apiKey, checkProviderOptions, requireModelName } from './provider-config.ts';
import { mergeProviderOptions } from './provider-options.ts';
import {
  type EventStream,
  TRANSPORT_OPTIONS,
  type TransportOptions,
  transport,
} from './transport.ts';
import { TurnBuilder, usageOf } from './turn-builder.ts';
import type {
  ContentPart,
  GenerateRequest,
  GenerateResult,
  Model,
  ModelLimits,
  ModelWarning,
  StopReason,
  StreamEvent,
  ToolChoice,
  Usage,
} from './types.ts';

type ReasoningPart = Extract<ContentPart, { type: 'reasoning' }>;

/** Options of {@link anthropic}. */
export interface AnthropicOptions extends TransportOptions {
  /** Model name, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** Defaults to `ANTHROPIC_API_KEY`. */
  apiKey?: string;
  /** Defaults to `https://api.anthropic.com` (the client appends `/v1/messages`). */
  baseURL?: string;
  /** `max_tokens` when a request sets none (the API requires one; default 4096). */
  maxTokens?: number;
  /** The `anthropic-version` header (default `2023-06-01`). */
  version?: string;
  /** Extra headers sent with every request (e.g. `anthropic-beta`). */
  headers?: Record<string, string>;
  /**
   * Prompt caching: marks the system prompt and the tool definitions with
   * `cache_control: { type: 'ephemeral' }`, so repeated requests of a run read them from
   * the cache (`usage.cachedInputTokens`) instead of paying for them again.
   */
  cacheControl?: boolean;
  /**
   * The model's context window and output limit (`model.limits`), over the shipped
   * table's figures for its name; either field alone is enough (docs/decisions/142).
   */
  limits?: Partial<ModelLimits>;
}

const PROVIDER = 'anthropic';
const REQUEST_ID = 'request-id';
const KNOWN_OPTIONS: Record<keyof AnthropicOptions, true> = {
  ...TRANSPORT_OPTIONS,
  model: true,
  apiKey: true,
  baseURL: true,
  maxTokens: true,
  version: true,
  headers: true,
  cacheControl: true,
  limits: true,
};
/** How many times one turn paused by the API (`pause_turn`) is continued before giving up. */
const MAX_PAUSE_CONTINUATIONS = 8;

/**
 * A {@link Model} over the Anthropic Messages API. Retries 429, 5xx and 529 (overloaded)
 * with backoff, honouring `retry-after`; other failures are {@link ModelError}s.
 * Extended thinking (`reasoning.budgetTokens`) comes back as `reasoning` parts, kept
 * verbatim (signature included) so tool loops can send them back; a turn the API pauses
 * (`pause_turn`) is continued until it ends.
 *
 * @example
 * ```ts
 * import { anthropic } from 'fino:ai/model';
 *
 * const model = anthropic({ model: 'claude-sonnet-4-5' }); // key from ANTHROPIC_API_KEY
 * const result = await model.generate({ messages: [{ role: 'user', content: 'Say hi.' }] });
 * console.log(result.text, result.usage);
 * ```
 */
export function anthropic(options: AnthropicOptions): Model {
  checkProviderOptions(PROVIDER, options, KNOWN_OPTIONS, {
    anthropicVersion: '"version"',
    betas: '"headers" ({ headers: { \'anthropic-beta\': … } })',
  });
  requireModelName(PROVIDER, options);
  const http = transport({ provider: PROVIDER, requestIdHeader: REQUEST_ID }, options);
  const limits = modelLimits(PROVIDER, options.model, options.limits);
  const baseURL = (options.baseURL ?? 'https://api.anthropic.com').replace(/\/+$/, '');

  const headers = () => ({
    'x-api-key': apiKey(PROVIDER, options.apiKey, 'ANTHROPIC_API_KEY', true)!,
    'anthropic-version': options.version ?? '2023-06-01',
    ...options.headers,
  });
  const call = (
    request: GenerateRequest,
    stream: boolean,
    warnings: ModelWarning[],
    paused: Block[],
  ) => ({
    url: `${baseURL}/v1/messages`,
    headers: headers(),
    body: bodyOf(options, request, stream, warnings, paused),
    signal: request.signal,
  });

  return {
    id: `${PROVIDER}:${options.model}`,
    limits,
    async generate(request) {
      checkRequest(PROVIDER, request);
      const turn = pausableTurn(request);
      for (;;) {
        const warnings: ModelWarning[] = [];
        const body = await http.json(call(request, false, warnings, turn.paused));
        const result = turn.add(readMessage(body, turn.builder), warnings);
        if (result) return result;
      }
    },
    stream(request) {
      return guardedStream(request?.signal, async function* () {
        checkRequest(PROVIDER, request);
        const turn = pausableTurn(request);
        for (;;) {
          const warnings: ModelWarning[] = [];
          const stream = await http.events(call(request, true, warnings, turn.paused));
          const result = turn.add(yield* streamMessage(stream, turn.builder), warnings);
          if (result) {
            yield { type: 'usage', usage: result.usage };
            yield { type: 'stop', result };
            return;
          }
        }
      });
    },
    async countTokens(request) {
      checkRequest(PROVIDER, request);
      const body = bodyOf(options, request, false, [], []);
      const answer = await http.json({
        url: `${baseURL}/v1/messages/count_tokens`,
        headers: headers(),
        body: Object.fromEntries(COUNTED_FIELDS.filter((f) => f in body).map((f) => [f, body[f]])),
        signal: request.signal,
      });
      return countFromAnswer(PROVIDER, answer, 'input_tokens');
    },
  };
}

/**
 * The fields of a Messages body that `POST /v1/messages/count_tokens` takes: what the
 * model reads, not how it answers (`max_tokens`, `temperature`, `stream` are refused).
 */
const COUNTED_FIELDS = [
  'model',
  'system',
  'messages',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
];

function builderFor(request: GenerateRequest): TurnBuilder {
  const builder = new TurnBuilder();
  if (request.output) builder.parseOutput();
  return builder;
}

/**
 * One turn of the model, which the API may pause (`pause_turn`, a long server tool run):
 * `paused` holds its blocks so far, to send back so that it goes on; `add` takes each
 * response and answers the finished result — usage summed over every response — or
 * `undefined` while the turn is paused and may be continued (at most
 * {@link MAX_PAUSE_CONTINUATIONS} times; then it ends with a warning).
 */
function pausableTurn(request: GenerateRequest) {
  const builder = builderFor(request);
  const paused: Block[] = [];
  let usage = usageOf();
  let pauses = 0;
  return {
    builder,
    paused,
    add(turn: ReadTurn, warnings: ModelWarning[]): GenerateResult | undefined {
      usage = addUsage(usage, turn.usage);
      paused.push(...turn.blocks);
      if (turn.raw === 'pause_turn' && pauses < MAX_PAUSE_CONTINUATIONS) {
        pauses++;
        return undefined;
      }
      if (turn.raw === 'pause_turn') {
        warnings.push({
          message: `the turn was still paused (pause_turn) after ${MAX_PAUSE_CONTINUATIONS} continuations`,
        });
      }
      return builder.finish(stopReasonOf(turn.raw), turn.raw, usage, warnings);
    },
  };
}

/** Checks the thinking budget and the temperature it allows before anything is sent. */
function thinkingOf(request: GenerateRequest, maxTokens: number) {
  const budget = request.reasoning?.budgetTokens;
  const { temperature } = request;
  if (temperature !== undefined && temperature > 1) {
    throw new RangeError(
      `${PROVIDER}: request.temperature: expected a number from 0 to 1, received ${temperature}`,
    );
  }
  if (budget === undefined) return undefined;
  if (budget < 1024 || budget >= maxTokens) {
    throw new RangeError(
      `${PROVIDER}: request.reasoning.budgetTokens: expected at least 1024 and less than max_tokens (${maxTokens}), received ${budget}`,
    );
  }
  const choice = request.toolChoice;
  if (request.tools?.length && (choice === 'required' || typeof choice === 'object')) {
    throw new TypeError(
      `${PROVIDER}: request.toolChoice: expected 'auto' or 'none' with extended thinking (reasoning.budgetTokens), received ${JSON.stringify(choice)}`,
    );
  }
  if (temperature !== undefined && temperature !== 1) {
    throw new RangeError(
      `${PROVIDER}: request.temperature: expected 1 or none with extended thinking (reasoning.budgetTokens), received ${temperature}`,
    );
  }
  return { type: 'enabled', budget_tokens: budget };
}

/**
 * The request body. `paused` holds the blocks of a turn the API paused so far, exactly as
 * received (server tool blocks included): they go last as the assistant turn to continue
 * (docs/decisions/076).
 */
function bodyOf(
  options: AnthropicOptions,
  request: GenerateRequest,
  stream: boolean,
  warnings: ModelWarning[],
  paused: Block[],
): Record<string, unknown> {
  const maxTokens = request.maxTokens ?? options.maxTokens ?? 4096;
  const thinking = thinkingOf(request, maxTokens);
  const { system, messages } = toAnthropicMessages(request.system, request.messages, warnings);
  warnUnsentProviderTools('the Anthropic Messages API', undefined, request, warnings);
  const body: Record<string, unknown> = { model: options.model, max_tokens: maxTokens };
  if (system !== undefined) {
    body.system = options.cacheControl
      ? [{ type: 'text', text: system, cache_control: EPHEMERAL }]
      : system;
  }
  if (paused.length > 0) {
    const last = messages.at(-1);
    if (last?.role === 'assistant') last.content.push(...paused);
    else messages.push({ role: 'assistant', content: paused.slice() });
  }
  body.messages = messages;
  if (request.tools?.length) {
    const tools: Array<AnthropicTool & { cache_control?: unknown }> = request.tools.map((tool) =>
      toAnthropicTool(tool),
    );
    // A breakpoint on the last tool caches every tool definition before it.
    if (options.cacheControl) tools[tools.length - 1].cache_control = EPHEMERAL;
    body.tools = tools;
    if (request.toolChoice !== undefined) body.tool_choice = toolChoiceOf(request.toolChoice);
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (thinking) body.thinking = thinking;
  const outputConfig: Record<string, unknown> = {};
  if (request.reasoning?.effort !== undefined) outputConfig.effort = request.reasoning.effort;
  if (request.output) outputConfig.format = { type: 'json_schema', schema: request.output.schema };
  if (Object.keys(outputConfig).length > 0) body.output_config = outputConfig;
  if (stream) body.stream = true;
  mergeProviderOptions(PROVIDER, body, request);
  return body;
}

const EPHEMERAL = { type: 'ephemeral' };

function toolChoiceOf(choice: ToolChoice): Record<string, string> {
  if (typeof choice !== 'string') return { type: 'tool', name: choice.name };
  return { type: choice === 'required' ? 'any' : choice };
}

/** What one response added to a turn: its raw stop reason, usage and blocks as received. */
interface ReadTurn {
  raw?: string;
  usage: Usage;
  blocks: Block[];
}

type Block = Record<string, unknown>;

/** Adds one response's blocks to the turn; returns its raw stop reason, usage and blocks. */
function readMessage(body: unknown, builder: TurnBuilder): ReadTurn {
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
async function* streamMessage(
  { events, requestId }: EventStream,
  builder: TurnBuilder,
): AsyncGenerator<StreamEvent, ReadTurn> {
  let usage = usageOf();
  let raw: string | undefined;
  const wholeInputs = new Map<number, string>();
  const blocks = new StreamedBlocks();
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

/**
 * The content blocks of a streamed response rebuilt as the API would have sent them whole:
 * each `content_block_start` block with its text, thinking, signature and input JSON deltas
 * applied. Only a paused turn needs them (to send it back as received).
 */
class StreamedBlocks {
  private readonly blocks = new Map<number, Block>();
  private readonly inputs = new Map<number, string>();

  apply(event: Record<string, unknown>): void {
    const index = Number(event.index);
    if (event.type === 'content_block_start' && isRecord(event.content_block)) {
      this.blocks.set(index, { ...event.content_block });
      return;
    }
    const block = this.blocks.get(index);
    if (event.type !== 'content_block_delta' || !block || !isRecord(event.delta)) return;
    const { delta } = event;
    const append = (field: string, value: unknown) => {
      if (typeof value === 'string') block[field] = String(block[field] ?? '') + value;
    };
    if (delta.type === 'text_delta') append('text', delta.text);
    else if (delta.type === 'thinking_delta') append('thinking', delta.thinking);
    else if (delta.type === 'signature_delta') append('signature', delta.signature);
    else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
      this.inputs.set(index, (this.inputs.get(index) ?? '') + delta.partial_json);
    }
  }

  /** The blocks in index order, streamed input JSON parsed (left as sent when malformed). */
  done(): Block[] {
    return [...this.blocks.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, block]) => {
        const json = this.inputs.get(index);
        if (json === undefined) return block;
        try {
          return { ...block, input: JSON.parse(json) };
        } catch {
          return block;
        }
      });
  }
}

function stopReasonOf(raw: string | undefined): StopReason {
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
  const has = (key: string) => typeof value[key] === 'number';
  const count = (key: string) => (has(key) ? (value[key] as number) : 0);
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
  if (typeof details.thinking_tokens === 'number') usage.reasoningTokens = details.thinking_tokens;
  return usage;
}

/** The sum of two usages, optional counts included where either has them. */
function addUsage(a: Usage, b: Usage): Usage {
  const sum = usageOf(a.inputTokens + b.inputTokens, a.outputTokens + b.outputTokens);
  for (const key of ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return sum;
}
