/**
 * `openai()`: a {@link Model} over OpenAI's Responses API or the Chat Completions API of
 * any compatible server, built on the providers' skeleton (`providerModel`); this file
 * holds its options, their checks and the wiring both APIs share.
 */
import { describeValue } from '../../../internal/describe-value.ts';
import type {
  AnswerSize,
  GenerateRequest,
  GenerateResult,
  Model,
  StreamEvent,
} from '../core/index.ts';
import {
  apiKey,
  baseURLOf,
  type ProviderDescriptor,
  type ProviderOptions,
  type ProviderWiring,
  providerModel,
} from '../provider/index.ts';
import type { EventStream } from '../wire/index.ts';
import { fromCompletion, prepareChat, streamCompletion } from './chat-completions.ts';
import { openaiTools } from './provider-tools.ts';
import { prepareResponses } from './responses.ts';
import { fromResponse, streamResponse } from './responses-turn.ts';
import type { PreparedTurn } from './tool.ts';

/** Options of {@link openai}. */
export interface OpenAIOptions extends ProviderOptions {
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
}

const PROVIDER = 'openai';
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const OPENAI: ProviderDescriptor<OpenAIOptions> = {
  provider: PROVIDER,
  requestIdHeader: 'x-request-id',
  options: {
    strict: true,
    maxTokensField: true,
    reasoningEffort: true,
    api: true,
    reasoningSummary: true,
    store: true,
  },
  hints: { organization: '"headers" ({ headers: { \'OpenAI-Organization\': … } })' },
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
  return providerModel(OPENAI, options, () => {
    const baseURL = baseURLOf(options.baseURL, DEFAULT_BASE_URL);
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
    const headers = () => {
      const key = apiKey(PROVIDER, options.apiKey, 'OPENAI_API_KEY', !customBase);
      return { ...(key ? { authorization: `Bearer ${key}` } : {}), ...options.headers };
    };
    const { path, endMarker, ...format } = api === 'responses' ? RESPONSES : CHAT;
    const url = `${baseURL}${path}`;
    const wiring: ProviderWiring<PreparedTurn> = {
      begin: (request, stream, size) => format.prepare(options, request, stream, size),
      send: (turn, request) => ({
        url,
        headers: headers(),
        body: turn.body,
        signal: request.signal,
      }),
      read: format.read,
      readStream: format.readStream,
      endMarker,
    };
    return wiring;
  });
}

/** Tools OpenAI's servers run for the model (Responses API): `openai.tools.webSearch()`, … */
openai.tools = openaiTools;

/** What differs between OpenAI's two APIs: the endpoint, the body, how the answer is read. */
interface OpenAIApi {
  path: string;
  /** A `data:` value that ends the stream (`[DONE]` in Chat Completions). */
  endMarker?: string;
  prepare(
    options: OpenAIOptions,
    request: GenerateRequest,
    stream: boolean,
    size: AnswerSize,
  ): PreparedTurn;
  read(answer: unknown, turn: PreparedTurn): GenerateResult;
  readStream(stream: EventStream, turn: PreparedTurn): AsyncGenerator<StreamEvent, GenerateResult>;
}

const RESPONSES: OpenAIApi = {
  path: '/responses',
  prepare: prepareResponses,
  read: fromResponse,
  readStream: streamResponse,
};

const CHAT: OpenAIApi = {
  path: '/chat/completions',
  endMarker: '[DONE]',
  prepare: prepareChat,
  read: fromCompletion,
  readStream: streamCompletion,
};
