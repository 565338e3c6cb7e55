/**
 * `gemini()`: a {@link Model} over the Gemini API, built on the providers' skeleton
 * (`providerModel`); this file holds its options, its model path and key, and its wiring.
 */
import { type GenerateRequest, type Model, ModelError, type ModelWarning } from '../core/index.ts';
import {
  baseURLOf,
  type ProviderDescriptor,
  type ProviderOptions,
  providerModel,
} from '../provider/index.ts';
import type { ProviderRequest } from '../wire/index.ts';
import { GEMINI } from './messages.ts';
import { fromResponse, streamResponse } from './read-answer.ts';
import { bodyOf, checkToolNames } from './request-body.ts';
import { GeminiTurn } from './turn.ts';

/** Options of {@link gemini}. */
export interface GeminiOptions extends ProviderOptions {
  /** Model name, e.g. `gemini-2.5-flash` (a `models/…` or `tunedModels/…` name also works). */
  model: string;
  /** Defaults to `GOOGLE_API_KEY`, else `GEMINI_API_KEY` (the official SDK's order). */
  apiKey?: string;
  /** Defaults to `https://generativelanguage.googleapis.com` (the client appends `/v1beta/…`). */
  baseURL?: string;
}

const PROVIDER = GEMINI;
const IN_PROVIDER_OPTIONS = (name: string) =>
  `the request option providerOptions ({ providerOptions: { gemini: { ${name} } } })`;
const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
const GEMINI_PROVIDER: ProviderDescriptor<GeminiOptions> = {
  provider: PROVIDER,
  // Google documents no request id header; gateways in front of it commonly set this one.
  requestIdHeader: 'x-request-id',
  eventNoun: 'chunk',
  options: {},
  hints: {
    safetySettings: IN_PROVIDER_OPTIONS('safetySettings'),
    generationConfig: IN_PROVIDER_OPTIONS('generationConfig'),
    cachedContent: IN_PROVIDER_OPTIONS('cachedContent'),
  },
};

/**
 * A {@link Model} over the Gemini API (`generateContent` and `streamGenerateContent`,
 * v1beta). Tool schemas go through `toGeminiSchema`, whose warnings appear on the
 * result; function call ids and thought signatures travel back with their calls.
 * Retries 408, 409, 429 and 5xx with backoff; other failures are {@link ModelError}s.
 *
 * @example
 * ```ts
 * import { gemini } from 'fino:ai/model';
 *
 * const model = gemini({ model: 'gemini-2.5-flash' }); // key from GOOGLE_API_KEY or GEMINI_API_KEY
 * const result = await model.generate({ messages: [{ role: 'user', content: 'Say hi.' }] });
 * console.log(result.text, result.usage);
 * ```
 */
export function gemini(options: GeminiOptions): Model {
  return providerModel(GEMINI_PROVIDER, options, () => {
    const baseURL = baseURLOf(options.baseURL, DEFAULT_BASE_URL);
    const path = modelPath(options.model);

    const prepared = (request: GenerateRequest, stream: boolean) => {
      checkToolNames(request);
      const key = keyOf(options.apiKey);
      const warnings: ModelWarning[] = [];
      const body = bodyOf(request, warnings);
      const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
      const call: ProviderRequest = {
        url: `${baseURL}/v1beta/${path}:${method}`,
        headers: { 'x-goog-api-key': key, ...options.headers },
        body,
        signal: request.signal,
      };
      return { call, warnings };
    };

    return {
      begin: (request, stream, size) => ({
        ...prepared(request, stream),
        turn: new GeminiTurn(size, request.output !== undefined),
      }),
      send: ({ call }) => call,
      read: (answer, { turn, warnings }) => fromResponse(answer, turn, warnings),
      readStream: (stream, { turn, warnings }) => streamResponse(stream, turn, warnings),
      count: {
        call(request) {
          const { call } = prepared(request, false);
          // The whole request, so tools, the system instruction and settings are counted too.
          const body = { generateContentRequest: { model: path, ...(call.body as object) } };
          return { ...call, url: `${baseURL}/v1beta/${path}:countTokens`, body };
        },
        field: 'totalTokens',
      },
    };
  });
}

/** `models/<name>` with each segment escaped, so a model name cannot reach another path. */
function modelPath(model: string): string {
  const segments = model.includes('/') ? model.split('/') : ['models', model];
  if (segments.length > 2 || segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw new TypeError(
      `${PROVIDER}(options): options.model: expected a model name like 'gemini-2.5-flash' or 'tunedModels/<id>', received ${JSON.stringify(model)}`,
    );
  }
  return segments.map((segment) => encodeURIComponent(segment)).join('/');
}

function keyOf(given: string | undefined): string {
  const key = given || process.env.GOOGLE_API_KEY || process.env.GEMINI_API_KEY;
  if (!key) {
    throw new ModelError(
      `${PROVIDER}: no API key: pass { apiKey } or set the GOOGLE_API_KEY or GEMINI_API_KEY environment variable`,
      { provider: PROVIDER },
    );
  }
  return key;
}
