import { checkRequest } from './check-request.ts';
import { countFromAnswer } from './count-tokens.ts';
import { GEMINI, toGeminiContents } from './gemini-messages.ts';
import { toGeminiSchema, toGeminiWireSchema } from './gemini-schema.ts';
import { toGeminiTool } from './gemini-tool.ts';
import { GeminiTurn, usageFrom } from './gemini-turn.ts';
import { guardedStream } from './guarded-stream.ts';
import { isRecord, streamError } from './http.ts';
import { warnUnsentProviderTools } from './message-parts.ts';
import { ModelError } from './model-error.ts';
import { modelLimits } from './model-limits.ts';
import { checkProviderOptions, requireModelName } from './provider-config.ts';
import {
  type EventStream,
  TRANSPORT_OPTIONS,
  type TransportOptions,
  transport,
} from './transport.ts';
import type {
  GenerateRequest,
  GenerateResult,
  Model,
  ModelLimits,
  ModelWarning,
  StreamEvent,
  ToolChoice,
  Usage,
} from './types.ts';

/** Options of {@link gemini}. */
export interface GeminiOptions extends TransportOptions {
  /** Model name, e.g. `gemini-2.5-flash` (a `models/…` or `tunedModels/…` name also works). */
  model: string;
  /** Defaults to `GOOGLE_API_KEY`, else `GEMINI_API_KEY` (the official SDK's order). */
  apiKey?: string;
  /** Defaults to `https://generativelanguage.googleapis.com` (the client appends `/v1beta/…`). */
  baseURL?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * The model's context window and output limit (`model.limits`), over the shipped
   * table's figures for its name; either field alone is enough (docs/decisions/142).
   */
  limits?: Partial<ModelLimits>;
}

const PROVIDER = GEMINI;
const KNOWN_OPTIONS: Record<keyof GeminiOptions, true> = {
  ...TRANSPORT_OPTIONS,
  model: true,
  apiKey: true,
  baseURL: true,
  headers: true,
  limits: true,
};
const IN_PROVIDER_OPTIONS = (name: string) =>
  `the request option providerOptions ({ providerOptions: { gemini: { ${name} } } })`;
const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
/** Google documents no request id header; gateways in front of it commonly set this one. */
const REQUEST_ID = 'x-request-id';
/** Gemini's rule for function names, as its API reference states it. */
const FUNCTION_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
const EFFORT_LEVELS = { low: 'LOW', medium: 'MEDIUM', high: 'HIGH' } as const;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A {@link Model} over the Gemini API (`generateContent` and `streamGenerateContent`,
 * v1beta). Tool schemas go through {@link toGeminiSchema}, whose warnings appear on the
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
  checkProviderOptions(PROVIDER, options, KNOWN_OPTIONS, {
    safetySettings: IN_PROVIDER_OPTIONS('safetySettings'),
    generationConfig: IN_PROVIDER_OPTIONS('generationConfig'),
    cachedContent: IN_PROVIDER_OPTIONS('cachedContent'),
  });
  requireModelName(PROVIDER, options);
  const http = transport(
    { provider: PROVIDER, requestIdHeader: REQUEST_ID, eventNoun: 'chunk' },
    options,
  );
  const baseURL = (options.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const path = modelPath(options.model);
  const limits = modelLimits(PROVIDER, options.model, options.limits);

  const prepared = (request: GenerateRequest, stream: boolean) => {
    checkRequest(PROVIDER, request);
    checkToolNames(request);
    const key = keyOf(options.apiKey);
    const warnings: ModelWarning[] = [];
    const body = bodyOf(request, warnings);
    const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    const call = {
      url: `${baseURL}/v1beta/${path}:${method}`,
      headers: { 'x-goog-api-key': key, ...options.headers },
      body,
      signal: request.signal,
    };
    return { call, warnings };
  };

  return {
    id: `${PROVIDER}:${options.model}`,
    limits,
    async generate(request) {
      const { call, warnings } = prepared(request, false);
      const turn = new GeminiTurn(request.output !== undefined);
      return fromResponse(await http.json(call), turn, warnings);
    },
    stream(request) {
      return guardedStream(request?.signal, async function* () {
        const { call, warnings } = prepared(request, true);
        yield* streamResponse(
          await http.events(call),
          new GeminiTurn(request.output !== undefined),
          warnings,
        );
      });
    },
    async countTokens(request) {
      const { call } = prepared(request, false);
      const answer = await http.json({
        ...call,
        url: `${baseURL}/v1beta/${path}:countTokens`,
        // The whole request, so tools, the system instruction and settings are counted too.
        body: { generateContentRequest: { model: path, ...call.body } },
      });
      return countFromAnswer(PROVIDER, answer, 'totalTokens');
    },
  };
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

/** Throws a `TypeError` for a tool name Gemini would reject, before anything is sent. */
function checkToolNames(request: GenerateRequest): void {
  request.tools?.forEach((tool, i) => {
    if (!FUNCTION_NAME.test(tool.name)) {
      throw new TypeError(
        `${PROVIDER}: tools[${i}].name: expected 1 to 64 characters, starting with a letter or an underscore, then letters, digits, '_', '.', ':' or '-', received ${JSON.stringify(tool.name)}`,
      );
    }
  });
  const choice = request.toolChoice;
  if (typeof choice === 'object' && choice !== null) {
    if (!request.tools?.some((tool) => tool.name === choice.name)) {
      throw new TypeError(
        `${PROVIDER}: toolChoice.name: expected the name of one of request.tools, received ${JSON.stringify(choice.name)}`,
      );
    }
  }
}

function bodyOf(request: GenerateRequest, warnings: ModelWarning[]): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...toGeminiContents(request.system, request.messages, warnings),
  };
  warnUnsentProviderTools('the Gemini API', undefined, request, warnings);
  if (request.tools?.length) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((tool) => toGeminiTool(tool, warnings)),
      },
    ];
    if (request.toolChoice !== undefined) {
      body.toolConfig = { functionCallingConfig: toolChoiceOf(request.toolChoice) };
    }
  }
  const config = generationConfigOf(request, warnings);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  // Checked to be an object by checkRequest.
  const extra = request.providerOptions?.[PROVIDER];
  if (extra !== undefined) mergeInto(body, extra, 'providerOptions.gemini');
  return body;
}

function generationConfigOf(
  request: GenerateRequest,
  warnings: ModelWarning[],
): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  const { reasoning, output } = request;
  if (reasoning) {
    const thinking: Record<string, unknown> = { includeThoughts: true };
    if (reasoning.budgetTokens !== undefined) {
      thinking.thinkingBudget = reasoning.budgetTokens;
      if (reasoning.effort !== undefined) {
        warnings.push({
          message: `reasoning.effort ${JSON.stringify(reasoning.effort)} not sent: Gemini takes a thinking budget or a level, not both, and budgetTokens was given`,
        });
      }
    } else if (reasoning.effort !== undefined) {
      thinking.thinkingLevel = EFFORT_LEVELS[reasoning.effort];
    }
    config.thinkingConfig = thinking;
  }
  if (output) {
    const converted = toGeminiSchema(output.schema);
    for (const warning of converted.warnings) {
      warnings.push({ ...warning, message: `output schema: ${warning.message}` });
    }
    config.responseMimeType = 'application/json';
    config.responseSchema = toGeminiWireSchema(converted.schema);
  }
  return config;
}

function toolChoiceOf(choice: ToolChoice): Record<string, unknown> {
  if (typeof choice !== 'string') return { mode: 'ANY', allowedFunctionNames: [choice.name] };
  return { mode: choice === 'required' ? 'ANY' : choice === 'none' ? 'NONE' : 'AUTO' };
}

/**
 * Merges `extra` into `target`: objects merge key by key (so `generationConfig` fields
 * add to the adapter's), anything else replaces. Prototype keys are refused.
 */
function mergeInto(
  target: Record<string, unknown>,
  extra: Record<string, unknown>,
  path: string,
): void {
  for (const [key, value] of Object.entries(extra)) {
    if (UNSAFE_KEYS.has(key)) {
      throw new TypeError(
        `${PROVIDER}: ${path}: expected ordinary keys, received ${JSON.stringify(key)}`,
      );
    }
    const current = target[key];
    if (isRecord(value)) {
      const copy = isRecord(current) ? { ...current } : {};
      mergeInto(copy, value, `${path}.${key}`);
      target[key] = copy;
    } else target[key] = value;
  }
}

function fromResponse(body: unknown, turn: GeminiTurn, warnings: ModelWarning[]): GenerateResult {
  if (!isRecord(body)) {
    throw new ModelError(`${PROVIDER}: the response was not a JSON object`, {
      provider: PROVIDER,
      body,
    });
  }
  const candidate = firstCandidate(body);
  const blocked = blockReasonOf(body);
  if (!candidate && !blocked) {
    throw new ModelError(`${PROVIDER}: the response has no candidates`, {
      provider: PROVIDER,
      body,
    });
  }
  for (const part of partsOf(candidate)) turn.add(part);
  const usage = usageFrom(body.usageMetadata);
  return turn.finish(finishReasonOf(candidate) ?? blocked, usage, warnings, !candidate);
}

async function* streamResponse(
  { events, requestId }: EventStream,
  turn: GeminiTurn,
  warnings: ModelWarning[],
): AsyncGenerator<StreamEvent> {
  let usage: Usage = usageFrom(undefined);
  let finish: string | undefined;
  let blocked = false;
  for await (const chunk of events) {
    if (chunk.error !== undefined) throw streamError(PROVIDER, chunk, requestId);
    const candidate = firstCandidate(chunk);
    for (const part of partsOf(candidate)) yield* turn.add(part);
    const blockReason = blockReasonOf(chunk);
    if (blockReason !== undefined && !candidate) blocked = true;
    finish = finishReasonOf(candidate) ?? blockReason ?? finish;
    if (isRecord(chunk.usageMetadata)) usage = usageFrom(chunk.usageMetadata);
  }
  if (finish === undefined) {
    throw new ModelError(`${PROVIDER}: the stream ended before a finishReason`, {
      provider: PROVIDER,
      requestId,
      retryable: true,
    });
  }
  yield { type: 'usage', usage };
  yield { type: 'stop', result: turn.finish(finish, usage, warnings, blocked) };
}

function firstCandidate(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const candidates = body.candidates;
  return Array.isArray(candidates) && isRecord(candidates[0]) ? candidates[0] : undefined;
}

function partsOf(candidate: Record<string, unknown> | undefined): unknown[] {
  const content = candidate?.content;
  return isRecord(content) && Array.isArray(content.parts) ? content.parts : [];
}

function finishReasonOf(candidate: Record<string, unknown> | undefined): string | undefined {
  return typeof candidate?.finishReason === 'string' ? candidate.finishReason : undefined;
}

/** A blocked prompt's reason (`promptFeedback.blockReason`): the answer has no candidates. */
function blockReasonOf(body: Record<string, unknown>): string | undefined {
  const feedback = body.promptFeedback;
  return isRecord(feedback) && typeof feedback.blockReason === 'string'
    ? feedback.blockReason
    : undefined;
}
