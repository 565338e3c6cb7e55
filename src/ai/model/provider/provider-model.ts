/**
 * The skeleton of every HTTP provider, written once: `openai()`, `anthropic()` and
 * `gemini()` check their options, then hand {@link providerModel} the few things that
 * differ — how a request becomes an HTTP call and how an answer becomes a turn — and get
 * back a {@link Model} with the shared transport, limits, stream guard and token count.
 */
import { describeValue } from '../../../internal/describe-value.ts';
import {
  type GenerateRequest,
  type GenerateResult,
  isRecord,
  type Model,
  ModelError,
  type ModelLimits,
  type StreamEvent,
} from '../core/index.ts';
import { isTokenCount, modelLimits } from '../usage/index.ts';
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

/** What every provider's options hold besides its own: the model, its limits, the transport. */
export interface ProviderModelOptions extends TransportOptions {
  model: string;
  limits?: Partial<ModelLimits>;
}

/**
 * The option keys every HTTP provider takes, first and in this order (a refusal lists the
 * known keys): the transport's, then `model`, `apiKey`, `baseURL`, `headers` and `limits`.
 */
export const PROVIDER_OPTIONS = {
  ...TRANSPORT_OPTIONS,
  model: true,
  apiKey: true,
  baseURL: true,
  headers: true,
  limits: true,
} as const;

/**
 * A provider's first step: refuses an option key it does not know (`hints` adds its own
 * suggestions) and an options object without a model name.
 */
export function checkModelOptions<T extends object>(
  provider: string,
  options: T | undefined,
  known: Readonly<Record<keyof T, true>>,
  hints?: Readonly<Record<string, string>>,
): void {
  checkProviderOptions(provider, options, known, hints);
  requireModelName(provider, options as { model?: unknown } | undefined);
}

/**
 * What differs between providers, for one model. A `Turn` is the provider's state while
 * it reads one turn of the model: its turn builder, warnings, whatever its format needs.
 */
export interface ProviderWiring<Turn> {
  /**
   * Starts the turn that answers a request, which the skeleton has checked
   * (`checkRequest`); refuses what only this provider cannot send, before anything is sent.
   */
  begin(request: GenerateRequest, stream: boolean): Turn;
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
}

/**
 * A {@link Model} over a provider's HTTP API: id `provider:model`, the limits of the
 * shipped table under `options.limits`, one transport (retries, timeouts, byte limits)
 * checked now, `generate`, `stream` (abortable, usage and stop at its end) and, where the
 * provider has a counting endpoint, `countTokens`; each checks its request first.
 */
export function providerModel<Turn>(
  wire: WireFormat,
  options: ProviderModelOptions,
  wiring: ProviderWiring<Turn>,
): Model {
  const { provider } = wire;
  const limits = modelLimits(provider, options.model, options.limits);
  const http = transport(wire, options);
  const model: Model = {
    id: `${provider}:${options.model}`,
    limits,
    async generate(request) {
      checkRequest(provider, request);
      const turn = wiring.begin(request, false);
      for (;;) {
        const result = wiring.read(await http.json(wiring.send(turn, request)), turn);
        if (result) return result;
      }
    },
    stream(request) {
      return guardedStream(request?.signal, async function* () {
        checkRequest(provider, request);
        const turn = wiring.begin(request, true);
        for (;;) {
          const events = await http.events(wiring.send(turn, request));
          const result = yield* wiring.readStream(events, turn);
          if (result) {
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
