/**
 * The skeleton of every HTTP provider, written once: `openai()`, `anthropic()` and
 * `gemini()` hand {@link providerModel} a descriptor (name, request id header, own option
 * keys), which it checks their options against, and the few things that differ — how a
 * request becomes an HTTP call and how an answer becomes a turn — and get back a
 * {@link Model} with the shared transport, limits, stream guard and token count.
 */
import { describeValue } from '../../../internal/describe-value.ts';
import {
  AnswerSize,
  type GenerateRequest,
  type GenerateResult,
  isRecord,
  type Model,
  ModelError,
  type ModelLimits,
  maxAnswerCharsOf,
  type StreamEvent,
} from '../core/index.ts';
import { isTokenCount, modelLimits, settleUsage } from '../usage/index.ts';
import {
  type EventStream,
  guardedStream,
  type ProviderRequest,
  TRANSPORT_OPTIONS,
  type TransportOptions,
  transport,
  type WireFormat,
} from '../wire/index.ts';
import { checkRequest } from './check-request.ts';
import { checkProviderOptions, requireModelName } from './provider-config.ts';

/**
 * The options every HTTP provider takes, besides its own: the model, how to reach it, its
 * limits and the transport's. A provider's options interface extends this one and
 * redeclares a field only to document it for that provider (its default, an example).
 */
export interface ProviderOptions extends TransportOptions {
  /** Model name, as the provider's API knows it. */
  model: string;
  /** The API key; each provider documents the environment variable it reads by default. */
  apiKey?: string;
  /** Where the provider's API is served; each provider documents its default. */
  baseURL?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * The model's context window and output limit (`model.limits`), over the shipped
   * table's figures for its name; either field alone is enough (docs/decisions/142).
   */
  limits?: Partial<ModelLimits>;
  /**
   * The most characters one call's answer may hold — text, tool call arguments and
   * reasoning (signatures and encrypted content included) together, each piece counting
   * 32 more (default 16 Mi); past it the call fails with a `ModelError`
   * (`code: 'answer_too_large'`). See docs/decisions/177.
   */
  maxAnswerChars?: number;
}

/**
 * The option keys every HTTP provider takes, first and in this order (a refusal lists the
 * known keys): the transport's, then `model`, `apiKey`, `baseURL`, `headers` and `limits`.
 */
export const PROVIDER_OPTIONS: Readonly<Record<keyof ProviderOptions, true>> = {
  ...TRANSPORT_OPTIONS,
  model: true,
  apiKey: true,
  baseURL: true,
  headers: true,
  limits: true,
  maxAnswerChars: true,
};

/**
 * What the skeleton knows of a provider before any model: its wire format (name, request
 * id header, …) and the option keys only it takes, with its own suggestions for keys it
 * refuses (`hints`, over the shared ones that point to request options).
 */
export interface ProviderDescriptor<Options extends ProviderOptions>
  extends Omit<WireFormat, 'endMarker'> {
  /** The provider's own option keys, known after {@link PROVIDER_OPTIONS}, in this order. */
  options: Readonly<Record<Exclude<keyof Options, keyof ProviderOptions>, true>>;
  hints?: Readonly<Record<string, string>>;
}

/**
 * What differs between providers, for one model. A `Turn` is the provider's state while
 * it reads one turn of the model: its turn builder, warnings, whatever its format needs.
 */
export interface ProviderWiring<Turn> {
  /**
   * Starts the turn that answers a request, which the skeleton has checked
   * (`checkRequest`); refuses what only this provider cannot send, before anything is sent.
   * Every piece of the answer the turn keeps is counted in `size` (`maxAnswerChars`).
   */
  begin(request: GenerateRequest, stream: boolean, size: AnswerSize): Turn;
  /** The HTTP call for the turn's next answer (headers are read at each call). */
  send(turn: Turn, request: GenerateRequest): ProviderRequest;
  /**
   * Reads a whole answer into the turn: its result, or `undefined` when the turn goes on
   * with another call (a turn the API paused).
   */
  read(answer: unknown, turn: Turn): GenerateResult | undefined;
  /**
   * Streams an answer's events into the turn, yielding its deltas; returns the result
   * (the skeleton then yields `usage` and `stop`), or `undefined` as {@link read} does.
   */
  readStream(
    stream: EventStream,
    turn: Turn,
  ): AsyncGenerator<StreamEvent, GenerateResult | undefined>;
  /**
   * The provider's token counting endpoint: the call for a request (checked, as for
   * {@link begin}), and the answer's count field.
   */
  count?: { call(request: GenerateRequest): ProviderRequest; field: string };
  /** A `data:` value that ends this model's stream (`[DONE]` in Chat Completions). */
  endMarker?: string;
}

/**
 * A {@link Model} over a provider's HTTP API. First refuses an option key the provider
 * does not know and options without a model name; then asks `wire` for the provider's
 * wiring of these (checked) options. The model: id `provider:model`, the limits of the
 * shipped table under `options.limits`, one transport (retries, timeouts, byte limits)
 * checked now, `generate`, `stream` (abortable, usage and stop at its end) and, where the
 * provider has a counting endpoint, `countTokens`; each checks its request first.
 */
export function providerModel<Options extends ProviderOptions, Turn>(
  descriptor: ProviderDescriptor<Options>,
  options: Options,
  wire: () => ProviderWiring<Turn>,
): Model {
  const { options: own, hints, ...format } = descriptor;
  const { provider } = format;
  checkProviderOptions<ProviderOptions>(provider, options, { ...PROVIDER_OPTIONS, ...own }, hints);
  requireModelName(provider, options as { model?: unknown } | undefined);
  const wiring = wire();
  const { endMarker } = wiring;
  const limits = modelLimits(provider, options.model, options.limits);
  const maxAnswerChars = maxAnswerCharsOf(provider, options.maxAnswerChars);
  const http = transport(endMarker === undefined ? format : { ...format, endMarker }, options);
  const id = `${provider}:${options.model}`;
  /** The result, its usage counts checked (decision 176). */
  const settled = (result: GenerateResult, request: GenerateRequest) => {
    settleUsage(result, request, id);
    return result;
  };
  const model: Model = {
    id,
    limits,
    async generate(request) {
      checkRequest(provider, request);
      const turn = wiring.begin(request, false, new AnswerSize(provider, maxAnswerChars));
      for (;;) {
        const result = wiring.read(await http.json(wiring.send(turn, request)), turn);
        if (result) return settled(result, request);
      }
    },
    stream(request) {
      return guardedStream(request?.signal, async function* () {
        checkRequest(provider, request);
        const size = new AnswerSize(provider, maxAnswerChars);
        const turn = wiring.begin(request, true, size);
        for (;;) {
          const events = await http.events(wiring.send(turn, request));
          // Only what adds to the answer restarts the stream's idle wait (decision 178).
          size.onGrow = events.progress;
          const read = yield* wiring.readStream(events, turn);
          if (read) {
            const result = settled(read, request);
            yield { type: 'usage', usage: result.usage };
            yield { type: 'stop', result };
            return;
          }
        }
      });
    },
  };
  const { count } = wiring;
  if (count) {
    model.countTokens = async (request) => {
      checkRequest(provider, request);
      return countFromAnswer(provider, await http.json(count.call(request)), count.field);
    };
  }
  return model;
}

/**
 * The count in a counting endpoint's answer, `body[field]`; anything but a non-negative
 * integer there is a {@link ModelError} that shows what came instead.
 */
function countFromAnswer(provider: string, body: unknown, field: string): number {
  const value = isRecord(body) ? body[field] : undefined;
  if (isTokenCount(value)) return value;
  throw new ModelError(
    `${provider}: the token count answer has no ${field} (expected a non-negative integer, received ${describeValue(value)})`,
    { provider, body },
  );
}
