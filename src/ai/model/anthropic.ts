import { toAnthropicMessages } from './anthropic-messages.ts';
import {
  isRecord,
  postJson,
  type RetryOptions,
  readJson,
  retryOptionsOf,
  streamError,
} from './http.ts';
import { ModelError } from './model-error.ts';
import { apiKey, checkRequest, guardedStream, requireModelName } from './provider-support.ts';
import { parseServerSentEvents, responseChunks } from './sse.ts';
import { TurnBuilder, usageOf } from './turn-builder.ts';
import type {
  GenerateRequest,
  GenerateResult,
  Model,
  ModelWarning,
  StopReason,
  StreamEvent,
  ToolChoice,
  Usage,
} from './types.ts';

/** Options of {@link anthropic}. */
export interface AnthropicOptions extends RetryOptions {
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
}

const PROVIDER = 'anthropic';
const REQUEST_ID = 'request-id';

/**
 * A {@link Model} over the Anthropic Messages API. Retries 429, 5xx and 529 (overloaded)
 * with backoff, honouring `retry-after`; other failures are {@link ModelError}s.
 *
 * @example
 * ```ts
 * import { anthropic } from 'fino/ai/model';
 *
 * const model = anthropic({ model: 'claude-sonnet-4-5' }); // key from ANTHROPIC_API_KEY
 * const result = await model.generate({ messages: [{ role: 'user', content: 'Say hi.' }] });
 * console.log(result.text, result.usage);
 * ```
 */
export function anthropic(options: AnthropicOptions): Model {
  requireModelName(PROVIDER, options);
  const retry = retryOptionsOf(options);
  const baseURL = (options.baseURL ?? 'https://api.anthropic.com').replace(/\/+$/, '');

  const send = async (request: GenerateRequest, stream: boolean) => {
    checkRequest(PROVIDER, request);
    const key = apiKey(PROVIDER, options.apiKey, 'ANTHROPIC_API_KEY', true);
    const warnings: ModelWarning[] = [];
    const response = await postJson({
      ...retry,
      provider: PROVIDER,
      url: `${baseURL}/v1/messages`,
      headers: {
        'x-api-key': key!,
        'anthropic-version': options.version ?? '2023-06-01',
        ...options.headers,
      },
      body: bodyOf(options, request, stream, warnings),
      signal: request.signal,
      requestIdHeader: REQUEST_ID,
    });
    return { response, warnings };
  };

  return {
    id: `${PROVIDER}:${options.model}`,
    async generate(request) {
      const { response, warnings } = await send(request, false);
      return fromMessage(await readJson(response, PROVIDER, REQUEST_ID), warnings);
    },
    stream(request) {
      return guardedStream(request?.signal, async function* () {
        const { response, warnings } = await send(request, true);
        yield* streamMessage(response, warnings);
      });
    },
  };
}

function bodyOf(
  options: AnthropicOptions,
  request: GenerateRequest,
  stream: boolean,
  warnings: ModelWarning[],
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: options.model,
    max_tokens: request.maxTokens ?? options.maxTokens ?? 4096,
    ...toAnthropicMessages(request.system, request.messages, warnings),
  };
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
    }));
    if (request.toolChoice !== undefined) body.tool_choice = toolChoiceOf(request.toolChoice);
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (stream) body.stream = true;
  return body;
}

function toolChoiceOf(choice: ToolChoice): Record<string, string> {
  if (typeof choice !== 'string') return { type: 'tool', name: choice.name };
  return { type: choice === 'required' ? 'any' : choice };
}

function fromMessage(body: unknown, warnings: ModelWarning[]): GenerateResult {
  if (!isRecord(body) || !Array.isArray(body.content)) {
    throw new ModelError(`${PROVIDER}: the response has no content array`, {
      provider: PROVIDER,
      body,
    });
  }
  const builder = new TurnBuilder();
  body.content.forEach((block: unknown, i) => {
    if (!isRecord(block)) return;
    if (block.type === 'text' && typeof block.text === 'string') builder.addText(block.text);
    if (block.type === 'tool_use') {
      builder.startToolCall(i, String(block.id), String(block.name));
      builder.appendToolArgs(i, JSON.stringify(block.input ?? {}));
      builder.endToolCall(i);
    }
  });
  const raw = typeof body.stop_reason === 'string' ? body.stop_reason : undefined;
  return builder.finish(stopReasonOf(raw), raw, usageFrom(body.usage), warnings);
}

async function* streamMessage(
  response: Response,
  warnings: ModelWarning[],
): AsyncGenerator<StreamEvent> {
  const builder = new TurnBuilder();
  const requestId = response.headers.get(REQUEST_ID) ?? undefined;
  let usage = usageOf();
  let raw: string | undefined;
  const wholeInputs = new Map<number, string>();
  for await (const { data } of parseServerSentEvents(responseChunks(response))) {
    const event = parseEvent(data);
    switch (event.type) {
      case 'message_start':
        if (isRecord(event.message)) usage = usageFrom(event.message.usage, usage);
        break;
      case 'content_block_start': {
        const block = isRecord(event.content_block) ? event.content_block : {};
        if (block.type === 'tool_use') {
          yield builder.startToolCall(Number(event.index), String(block.id), String(block.name));
          // The API sends `input: {}` here and the JSON in deltas; some gateways send it whole.
          if (isRecord(block.input) && Object.keys(block.input).length > 0) {
            wholeInputs.set(Number(event.index), JSON.stringify(block.input));
          }
        } else if (block.type === 'text' && typeof block.text === 'string') {
          const text = builder.addText(block.text);
          if (text) yield text;
        }
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
        yield { type: 'usage', usage };
        yield { type: 'stop', result: builder.finish(stopReasonOf(raw), raw, usage, warnings) };
        return;
      case 'error':
        throw streamError(PROVIDER, event, requestId);
    }
  }
  throw new ModelError(`${PROVIDER}: the stream ended before message_stop`, {
    provider: PROVIDER,
    retryable: true,
  });
}

function parseEvent(data: string): Record<string, unknown> {
  try {
    const event: unknown = JSON.parse(data);
    if (isRecord(event)) return event;
  } catch {
    // Reported below.
  }
  throw new ModelError(`${PROVIDER}: a stream event was not a JSON object: ${data.slice(0, 200)}`, {
    provider: PROVIDER,
  });
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
 * counts only). Input tokens include cache reads and writes, which Anthropic counts apart.
 */
function usageFrom(value: unknown, previous: Usage = usageOf()): Usage {
  if (!isRecord(value)) return previous;
  const count = (key: string) => (typeof value[key] === 'number' ? (value[key] as number) : 0);
  const hasInput = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'].some(
    (key) => typeof value[key] === 'number',
  );
  const input = hasInput
    ? count('input_tokens') +
      count('cache_creation_input_tokens') +
      count('cache_read_input_tokens')
    : previous.inputTokens;
  const output =
    typeof value.output_tokens === 'number' ? value.output_tokens : previous.outputTokens;
  return usageOf(input, output);
}
