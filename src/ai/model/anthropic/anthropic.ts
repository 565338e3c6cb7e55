/**
 * `anthropic()`: a {@link Model} over the Anthropic Messages API, built on the providers'
 * skeleton (`providerModel`); this file holds its options and its wiring.
 */
import type { Model, ModelWarning } from '../core/index.ts';
import {
  apiKey,
  baseURLOf,
  type ProviderDescriptor,
  type ProviderOptions,
  providerModel,
} from '../provider/index.ts';
import { pausableTurn } from './paused-turn.ts';
import { readMessage, streamMessage } from './read-answer.ts';
import { bodyOf } from './request-body.ts';

/** Options of {@link anthropic}. */
export interface AnthropicOptions extends ProviderOptions {
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
}

const PROVIDER = 'anthropic';
const ANTHROPIC: ProviderDescriptor<AnthropicOptions> = {
  provider: PROVIDER,
  requestIdHeader: 'request-id',
  options: { maxTokens: true, version: true, cacheControl: true },
  hints: {
    anthropicVersion: '"version"',
    betas: '"headers" ({ headers: { \'anthropic-beta\': … } })',
  },
};

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
  return providerModel(ANTHROPIC, options, () => {
    const baseURL = baseURLOf(options.baseURL, 'https://api.anthropic.com');
    const headers = () => ({
      'x-api-key': apiKey(PROVIDER, options.apiKey, 'ANTHROPIC_API_KEY', true)!,
      'anthropic-version': options.version ?? '2023-06-01',
      ...options.headers,
    });
    return {
      begin: (request, stream, size): AnthropicTurn => ({
        ...pausableTurn(request, size),
        stream,
        warnings: [],
      }),
      send(turn, request) {
        // Each response of a paused turn has its own warnings; the last one's reach the result.
        turn.warnings = [];
        return {
          url: `${baseURL}/v1/messages`,
          headers: headers(),
          body: bodyOf(options, request, turn.stream, turn.warnings, turn.paused),
          signal: request.signal,
        };
      },
      read: (answer, turn) => turn.add(readMessage(answer, turn.builder), turn.warnings),
      async *readStream(stream, turn) {
        return turn.add(yield* streamMessage(stream, turn.builder), turn.warnings);
      },
      count: {
        call(request) {
          const body = bodyOf(options, request, false, [], []);
          return {
            url: `${baseURL}/v1/messages/count_tokens`,
            headers: headers(),
            body: Object.fromEntries(
              COUNTED_FIELDS.filter((f) => f in body).map((f) => [f, body[f]]),
            ),
            signal: request.signal,
          };
        },
        field: 'input_tokens',
      },
    };
  });
}

/** A turn being read, and whether it streams; `warnings` are those of its latest call. */
type AnthropicTurn = ReturnType<typeof pausableTurn> & {
  stream: boolean;
  warnings: ModelWarning[];
};

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
