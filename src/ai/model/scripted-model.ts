import { abortError } from '../../internal/abort-error.ts';
import { describeValue } from '../../internal/describe-value.ts';
import { unknownKeyMessage } from '../../internal/known-keys.ts';
import {
  type GenerateRequest,
  type GenerateResult,
  type Model,
  ModelError,
  type ModelLimits,
  type ModelWarning,
  resultEvents,
  type StopReason,
  type StreamEvent,
  type ToolCall,
  type Usage,
} from './core/index.ts';
import { checkProviderOptions, checkRequestFields } from './provider/index.ts';
import { modelLimits } from './usage/index.ts';

/** One scripted tool call; `id` defaults to `call_<turn>_<index>`. */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  args: unknown;
}

/** One scripted assistant turn: text, tool calls, or both. */
export interface ScriptedReply {
  text?: string;
  /** Reasoning the turn starts with (a `reasoning` part, streamed as `reasoning-delta`). */
  reasoning?: string;
  /** Provider warnings the result carries. */
  warnings?: ModelWarning[];
  toolCalls?: ScriptedToolCall[];
  /** Defaults to `tool_calls` when there are tool calls, `end` otherwise. */
  stopReason?: StopReason;
  /** Defaults to zero tokens; cached, cache-write and reasoning counts are passed on as given. */
  usage?: Partial<Usage>;
}

const SCRIPTED = 'scriptedModel';
const REPLY_FIELDS: Record<keyof ScriptedReply, true> = {
  text: true,
  reasoning: true,
  warnings: true,
  toolCalls: true,
  stopReason: true,
  usage: true,
};

/**
 * A turn of a {@link scriptedModel}: a plain string (text only), a reply, an `Error`
 * to throw, or a function of the request (and the zero-based turn number) returning one.
 */
export type ScriptedTurn =
  | string
  | ScriptedReply
  | Error
  | ((request: GenerateRequest, turn: number) => ScriptedTurn | Promise<ScriptedTurn>);

/** Options of {@link scriptedModel}. */
export interface ScriptedModelOptions {
  /** The model's id (default `scripted`); a provider's id such as `openai:gpt-4o` gives its limits. */
  id?: string;
  /**
   * `model.limits`, over those of the model `id` names (the conservative default for
   * `scripted`): e.g. `{ contextWindow: 4096 }` to test trimming (docs/decisions/142).
   */
  limits?: Partial<ModelLimits>;
}

/** A deterministic {@link Model} that replays scripted turns and records what it was asked. */
export interface ScriptedModel extends Model {
  /** Every request received, in order (including ones that failed). */
  readonly requests: GenerateRequest[];
  /** How many scripted turns are not yet used. */
  readonly remaining: number;
}

/**
 * A deterministic model for tests and offline demos: each `generate` or `stream` call
 * replays the next scripted turn, in order. It records the requests it got in
 * `model.requests` and fails with a clear error once it runs out of turns.
 *
 * @example
 * ```ts
 * import { scriptedModel } from 'fino:ai/model';
 *
 * const model = scriptedModel([
 *   { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
 *   'It is 4 °C in Oslo.',
 * ]);
 * const first = await model.generate({ messages: [{ role: 'user', content: 'Weather in Oslo?' }] });
 * console.log(first.toolCalls); // [{ id: 'call_0_0', name: 'weather', args: { city: 'Oslo' } }]
 * const second = await model.generate({ messages: [] });
 * console.log(second.text); // 'It is 4 °C in Oslo.'
 * console.log(model.requests.length); // 2
 * ```
 */
export function scriptedModel(
  turns: readonly ScriptedTurn[],
  options: ScriptedModelOptions = {},
): ScriptedModel {
  checkProviderOptions(SCRIPTED, options, { id: true, limits: true });
  const id = options.id ?? 'scripted';
  // A scripted stand-in for `openai:gpt-4o` has gpt-4o's limits; `scripted` has the default.
  const limits = modelLimits(SCRIPTED, id.slice(id.indexOf(':') + 1), options.limits);
  if (!Array.isArray(turns)) {
    throw new TypeError(
      `scriptedModel(turns): expected an array of turns, received ${describeValue(turns)}`,
    );
  }
  const script = [...turns];
  const requests: GenerateRequest[] = [];
  let next = 0;

  const reply = async (request: GenerateRequest): Promise<GenerateResult> => {
    requests.push(request);
    if (typeof request === 'object' && request !== null) checkRequestFields(SCRIPTED, request);
    if (request.signal?.aborted) throw abortError(request.signal);
    const turn = next;
    if (turn >= script.length) {
      throw new Error(
        `scriptedModel: no turn left for request ${turn + 1} (${script.length} turn(s) scripted)`,
      );
    }
    next += 1;
    let value: ScriptedTurn = script[turn];
    while (typeof value === 'function') value = await value(request, turn);
    if (value instanceof Error) throw value;
    if (request.signal?.aborted) throw abortError(request.signal);
    return toResult(value, turn);
  };

  return {
    id,
    limits,
    requests,
    get remaining() {
      return script.length - next;
    },
    generate: reply,
    async *stream(request: GenerateRequest): AsyncIterable<StreamEvent> {
      let result: GenerateResult;
      try {
        result = await reply(request);
      } catch (error) {
        yield { type: 'error', error: error instanceof Error ? error : new Error(String(error)) };
        return;
      }
      yield* resultEvents(result);
    },
  };
}

function toResult(turn: string | ScriptedReply, index: number): GenerateResult {
  const reply: ScriptedReply = typeof turn === 'string' ? { text: turn } : turn;
  if (reply === null || typeof reply !== 'object') {
    throw new TypeError(
      `scriptedModel: turn ${index}: expected a string, a reply object, an Error or a function, received ${describeValue(reply)}`,
    );
  }
  const unknown = unknownKeyMessage(`${SCRIPTED}: turn ${index}`, reply, Object.keys(REPLY_FIELDS));
  if (unknown) throw new ModelError(unknown, { provider: SCRIPTED, code: 'INVALID_ARGUMENT' });
  const text = reply.text ?? '';
  if (typeof text !== 'string') {
    throw new TypeError(
      `scriptedModel: turn ${index}: text: expected a string, received ${describeValue(text)}`,
    );
  }
  const calls = reply.toolCalls ?? [];
  if (!Array.isArray(calls) || calls.some((call) => typeof call?.name !== 'string')) {
    throw new TypeError(
      `scriptedModel: turn ${index}: toolCalls: expected an array of { name: string, args, id? }, received ${describeValue(calls)}`,
    );
  }
  const toolCalls: ToolCall[] = calls.map((call, i) => ({
    id: call.id ?? `call_${index}_${i}`,
    name: call.name,
    args: call.args,
  }));
  const content: GenerateResult['message']['content'] = [];
  if (reply.reasoning) content.push({ type: 'reasoning', text: reply.reasoning });
  if (text) content.push({ type: 'text', text });
  for (const call of toolCalls) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, args: call.args });
  }
  const inputTokens = reply.usage?.inputTokens ?? 0;
  const outputTokens = reply.usage?.outputTokens ?? 0;
  const result: GenerateResult = {
    message: { role: 'assistant', content },
    text,
    toolCalls,
    stopReason: reply.stopReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'end'),
    usage: {
      inputTokens,
      outputTokens,
      totalTokens: reply.usage?.totalTokens ?? inputTokens + outputTokens,
    },
  };
  for (const key of ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    const tokens = reply.usage?.[key];
    if (tokens !== undefined) result.usage[key] = tokens;
  }
  if (reply.warnings?.length) result.warnings = reply.warnings;
  return result;
}
