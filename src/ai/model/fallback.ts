/**
 * `fallback(models)`: a {@link Model} that asks each model in turn until one answers,
 * falling over only on failures that were the provider's fault (or what `when` says),
 * and — when streaming — only before the first content reached the caller.
 */
import { abortError } from '../../internal/abort-error.ts';
import { describeValue } from '../../internal/describe-value.ts';
import { unknownKeyMessage } from '../../internal/known-keys.ts';
import {
  type GenerateRequest,
  type GenerateResult,
  isModel,
  type Model,
  type ModelAttempt,
  ModelError,
  type ModelLimits,
  type StreamEvent,
  type Usage,
} from './core/index.ts';
import { isProviderFault } from './provider-fault.ts';

/** Options of {@link fallback}. */
export interface FallbackOptions {
  /**
   * Whether the model after `model` may answer, given the error `model` failed with
   * (after its own retries). Default {@link isProviderFault}: 5xx, overloaded, timeouts,
   * connection failures, rate limits past their retries — never a 4xx the request
   * caused. The caller's abort never falls over.
   */
  when?: (error: unknown, model: Model) => boolean;
}

const FALLBACK = 'fallback';

/**
 * A {@link Model} that sends each request to `models[0]`, and on a failure that was the
 * provider's fault to `models[1]`, and so on. The answer's `model` names the model that
 * answered and `attempts` lists every model tried (a failed attempt's reported usage
 * counts in the answer's `usage`). When every model fails, the last error is thrown
 * with `attempts` listing each. A stream falls over only until its first content event
 * (text, reasoning or a tool call) reached the caller; after that, a failure ends it.
 * Its `id` and `countTokens` are the first model's, its `limits` the smallest of all.
 *
 * @example
 * ```ts
 * import { fallback, ModelError, scriptedModel } from 'fino:ai/model';
 *
 * const primary = scriptedModel([new ModelError('openai: 503 overloaded', { provider: 'openai', status: 503, retryable: true })], { id: 'openai:gpt-4.1' });
 * const backup = scriptedModel(['Hello from the backup.'], { id: 'anthropic:claude-sonnet-4-5' });
 * const result = await fallback([primary, backup]).generate({ messages: [{ role: 'user', content: 'Hi' }] });
 * console.log(result.model, result.attempts?.length); // anthropic:claude-sonnet-4-5 2
 * ```
 */
export function fallback(models: readonly Model[], options: FallbackOptions = {}): Model {
  const list = checkModels(models);
  const when = checkWhen(options);
  const first = list[0];
  const limits = smallestLimits(list);
  const model: Model = {
    id: first.id,
    generate: (request) => generateWithFallback(list, when, request),
    stream: (request) => streamWithFallback(list, when, request),
  };
  if (limits !== undefined) Object.assign(model, { limits });
  if (first.countTokens) model.countTokens = (request) => first.countTokens!(request);
  return model;
}

type When = (error: unknown, model: Model) => boolean;

async function generateWithFallback(
  models: readonly Model[],
  when: When,
  request: GenerateRequest,
): Promise<GenerateResult> {
  const attempts: ModelAttempt[] = [];
  for (const [index, model] of models.entries()) {
    if (request.signal?.aborted) throw abortError(request.signal);
    try {
      return answered(await model.generate(request), model, attempts);
    } catch (error) {
      attempts.push({ model: model.id, error });
      if (!fallsOver(error, model, index, models, when, request)) {
        throw withAttempts(error, attempts);
      }
    }
  }
  throw new Error('unreachable: the last model either answers or throws');
}

async function* streamWithFallback(
  models: readonly Model[],
  when: When,
  request: GenerateRequest,
): AsyncGenerator<StreamEvent> {
  const attempts: ModelAttempt[] = [];
  for (const [index, model] of models.entries()) {
    if (request.signal?.aborted) throw abortError(request.signal);
    // Usage events held back until the first content: a failed attempt's stay its own.
    const held: StreamEvent[] = [];
    let delivered = false;
    try {
      for await (const event of model.stream(request)) {
        if (event.type === 'error') throw event.error;
        if (event.type === 'stop') {
          yield { type: 'stop', result: answered(event.result, model, attempts) };
          return;
        }
        if (!delivered && event.type === 'usage') {
          held.push(event);
          continue;
        }
        if (!delivered) yield* held.splice(0);
        delivered = true;
        yield event;
      }
      return;
    } catch (error) {
      const usage = held.findLast((e) => e.type === 'usage')?.usage;
      attempts.push(
        usage === undefined ? { model: model.id, error } : { model: model.id, error, usage },
      );
      if (delivered || !fallsOver(error, model, index, models, when, request)) {
        const last = withAttempts(error, attempts);
        yield { type: 'error', error: last instanceof Error ? last : new Error(String(last)) };
        return;
      }
    }
  }
}

/** Whether the model after `models[index]` gets the request that failed with `error`. */
function fallsOver(
  error: unknown,
  model: Model,
  index: number,
  models: readonly Model[],
  when: When,
  request: GenerateRequest,
): boolean {
  if (index === models.length - 1 || request.signal?.aborted) return false;
  if ((error as { name?: unknown } | null)?.name === 'AbortError') return false;
  return when(error, model) === true;
}

/**
 * The answer of `model`, naming it, with every attempt (an inner `fallback()`'s flattened)
 * and their usage summed.
 */
function answered(result: GenerateResult, model: Model, failed: ModelAttempt[]): GenerateResult {
  const own = result.attempts ?? [{ model: result.model ?? model.id, usage: result.usage }];
  const attempts = [...failed, ...own];
  const usage = attempts.reduce<Usage>(
    (sum, attempt) => (attempt.usage ? sumUsage(sum, attempt.usage) : sum),
    { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  );
  return { ...result, usage, model: own.at(-1)!.model, attempts };
}

/** The sum of two usages' token counts (`cost` is the agent's to set). */
function sumUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  for (const key of ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return sum;
}

/**
 * The last error, listing every attempt: a {@link ModelError} is copied with `attempts`
 * and a message naming each model tried; another error gets `attempts` set on it.
 */
function withAttempts(error: unknown, attempts: ModelAttempt[]): unknown {
  if (!(error instanceof ModelError)) {
    if (error !== null && typeof error === 'object' && Object.isExtensible(error)) {
      Object.defineProperty(error, 'attempts', { value: attempts, configurable: true });
    }
    return error;
  }
  const tried =
    attempts.length < 2
      ? ''
      : ` (fallback tried ${attempts.length} models: ${attempts.map(describeAttempt).join('; ')})`;
  return new ModelError(`${error.message}${tried}`, {
    provider: error.provider,
    status: error.status,
    providerMessage: error.providerMessage,
    code: error.code,
    requestId: error.requestId,
    retryable: error.retryable,
    body: error.body,
    cause: error.cause ?? error,
    attempts,
  });
}

const describeAttempt = (attempt: ModelAttempt): string =>
  `${attempt.model}: ${attempt.error instanceof Error ? attempt.error.message : describeValue(attempt.error)}`;

/** The smallest context window and output of the models that have limits. */
function smallestLimits(models: readonly Model[]): ModelLimits | undefined {
  const known = models.map((m) => m.limits).filter((l): l is ModelLimits => l !== undefined);
  if (known.length === 0) return undefined;
  const limits: ModelLimits = {
    contextWindow: Math.min(...known.map((l) => l.contextWindow)),
    maxOutput: Math.min(...known.map((l) => l.maxOutput)),
  };
  if (known.some((l) => l.assumed)) limits.assumed = true;
  return limits;
}

function checkModels(models: readonly Model[]): readonly Model[] {
  if (!Array.isArray(models) || models.length === 0) {
    throw invalid(
      `fallback(models): expected a non-empty array of Models, received ${describeValue(models)}`,
    );
  }
  models.forEach((model, i) => {
    if (!isModel(model)) {
      throw invalid(
        `fallback(models)[${i}]: expected a Model with generate() and stream(), received ${describeValue(model)}`,
      );
    }
  });
  return [...models];
}

function checkWhen(options: FallbackOptions): When {
  if (options === null || typeof options !== 'object') {
    throw invalid(
      `fallback(models, options): expected an object, received ${describeValue(options)}`,
    );
  }
  const unknown = unknownKeyMessage('fallback(models, options)', options, ['when']);
  if (unknown) throw invalid(unknown);
  const { when = isProviderFault } = options;
  if (typeof when !== 'function') {
    throw invalid(
      `fallback(models, options).when: expected a function (error, model) => boolean, received ${describeValue(when)}`,
    );
  }
  return when;
}

const invalid = (message: string) =>
  new ModelError(message, { provider: FALLBACK, code: 'INVALID_ARGUMENT' });
