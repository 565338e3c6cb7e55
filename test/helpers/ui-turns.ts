/**
 * The same chat turns on two backends: a fino agent over `scriptedModel`, and the AI SDK's
 * own `streamText` over `MockLanguageModelV4` with equivalent tools. Both are read with
 * `ai`'s `readUIMessageStream`, so the side-by-side tests compare the messages they build.
 */
import {
  type UIMessage as AiUIMessage,
  type UIMessageChunk as AiUIMessageChunk,
  tool as aiTool,
  isStepCount,
  jsonSchema,
  parseJsonEventStream,
  readUIMessageStream,
  streamText,
  uiMessageChunkSchema,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { agent } from '../../src/ai/agent/index.ts';
import type { ContentPart, Model, StreamEvent } from '../../src/ai/model/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import type { UIMessageChunk } from '../../src/ai/ui/index.ts';
import { v } from '../../src/validate/index.ts';

/** One model turn, written once for both backends. */
export interface Turn {
  reasoning?: string;
  /** The turn's text: one delta, or one delta per string. */
  text?: string | string[];
  calls?: { id: string; name: string; input: Record<string, unknown> }[];
  /** The model fails with this message: before any output, or after the turn's text (mid-stream). */
  error?: string;
}

/** Awaited before every text delta but a turn's first: a test holds a model mid-stream with it. */
export type Pace = () => Promise<void>;

const deltasOf = (turn: Turn): string[] =>
  turn.text === undefined ? [] : typeof turn.text === 'string' ? [turn.text] : turn.text;

export const IMAGE = [{ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }];

const city = v.object({ city: v.string() });
/** fino's tools: a text result, an error result, an image result, one needing approval. */
export const finoTools = [
  tool({ name: 'weather', parameters: city, execute: ({ city: c }) => `4 °C in ${c}` }),
  tool({ name: 'broken', parameters: city, execute: () => ({ content: 'boom', isError: true }) }),
  tool({
    name: 'photo',
    parameters: city,
    execute: () => ({ content: IMAGE as { type: 'image'; mediaType: string; data: string }[] }),
  }),
  tool({ name: 'pay', parameters: city, requiresApproval: true, execute: () => 'paid' }),
];

const citySchema = jsonSchema<{ city: string }>({
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
});
/** The same tools for `streamText`. */
export const aiTools = {
  weather: aiTool({ inputSchema: citySchema, execute: ({ city: c }) => `4 °C in ${c}` }),
  broken: aiTool({
    inputSchema: citySchema,
    execute: (): string => {
      throw new Error('boom');
    },
  }),
  photo: aiTool({ inputSchema: citySchema, execute: () => IMAGE }),
  pay: aiTool({ inputSchema: citySchema, needsApproval: true, execute: () => 'paid' }),
};

/** A fino model that streams `turns` in order, one per request, as a provider streams them. */
export function finoModel(turns: Turn[], pace: Pace = async () => {}): Model {
  let next = 0;
  return {
    id: 'turns',
    generate: () => Promise.reject(new Error('finoModel: stream only')),
    async *stream(): AsyncIterable<StreamEvent> {
      const turn = turns[next++];
      if (!turn) throw new Error(`finoModel: no turn left for request ${next}`);
      if (turn.reasoning) yield { type: 'reasoning-delta', text: turn.reasoning };
      for (const [index, text] of deltasOf(turn).entries()) {
        if (index > 0) await pace();
        yield { type: 'text-delta', text };
      }
      if (turn.error) {
        yield { type: 'error', error: new Error(turn.error) };
        return;
      }
      const toolCalls = (turn.calls ?? []).map((call) => ({
        id: call.id,
        name: call.name,
        args: call.input,
      }));
      for (const [index, call] of toolCalls.entries()) {
        yield { type: 'tool-call-start', id: call.id, name: call.name, index };
        yield { type: 'tool-call-delta', id: call.id, argsText: JSON.stringify(call.args), index };
        yield { type: 'tool-call-end', call, index };
      }
      const usage = { inputTokens: 3, outputTokens: 2, totalTokens: 5 };
      yield { type: 'usage', usage };
      const text = deltasOf(turn).join('');
      const content: ContentPart[] = [];
      if (turn.reasoning) content.push({ type: 'reasoning', text: turn.reasoning });
      if (text) content.push({ type: 'text', text });
      for (const call of toolCalls) content.push({ type: 'tool_use', ...call });
      const result = {
        message: { role: 'assistant' as const, content },
        text,
        toolCalls,
        stopReason: toolCalls.length > 0 ? ('tool_calls' as const) : ('end' as const),
        usage,
      };
      yield { type: 'stop', result };
    },
  };
}

/** A fino agent answering with `turns`. */
export function finoAgent(turns: Turn[], pace?: Pace) {
  return agent({ name: 'assistant', model: finoModel(turns, pace), tools: finoTools });
}

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

/** The stream parts of one turn for `MockLanguageModelV4` (`pace` before each text delta but the first). */
async function* modelParts(turn: Turn, pace: Pace) {
  if (turn.error && !turn.text) {
    yield { type: 'error' as const, error: new Error(turn.error) };
    return;
  }
  yield { type: 'stream-start', warnings: [] };
  if (turn.reasoning) {
    yield { type: 'reasoning-start', id: 'r' };
    yield { type: 'reasoning-delta', id: 'r', delta: turn.reasoning };
    yield { type: 'reasoning-end', id: 'r' };
  }
  if (turn.text) {
    yield { type: 'text-start', id: 't' };
    for (const [index, delta] of deltasOf(turn).entries()) {
      if (index > 0) await pace();
      yield { type: 'text-delta', id: 't', delta };
    }
    if (turn.error) {
      yield { type: 'error' as const, error: new Error(turn.error) };
      return;
    }
    yield { type: 'text-end', id: 't' };
  }
  for (const call of turn.calls ?? []) {
    const input = JSON.stringify(call.input);
    yield { type: 'tool-call', toolCallId: call.id, toolName: call.name, input };
  }
  const unified = turn.calls?.length ? 'tool-calls' : 'stop';
  yield { type: 'finish', finishReason: { unified, raw: undefined }, usage };
}

/** `ai`'s own mock model streaming `turns` in order, one per request. */
export function nativeModel(turns: Turn[], pace: Pace = async () => {}): MockLanguageModelV4 {
  let next = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const turn = turns[next++];
      if (!turn) throw new Error(`nativeModel: no turn left for request ${next}`);
      return { stream: ReadableStream.from(modelParts(turn, pace)) as ReadableStream<never> };
    },
  });
}

/** `streamText` over `ai`'s mock model answering with `turns`, with fino's tools' twins. */
function nativeResult(turns: Turn[]) {
  return streamText({
    model: nativeModel(turns),
    prompt: 'hi',
    tools: aiTools,
    stopWhen: isStepCount(10),
    onError: () => {},
  });
}

/** Shows the model's error to the page, as an app does (the AI SDK's default hides it). */
export const nativeErrorText = (error: unknown) => (error as Error).message;

/** The AI SDK's own UI message stream for `turns`: `streamText(...).toUIMessageStream()`. */
export function nativeStream(turns: Turn[]): ReadableStream<AiUIMessageChunk> {
  return nativeResult(turns).toUIMessageStream({ onError: nativeErrorText });
}

/** The AI SDK's own backend's answer for `turns`: `streamText(...).toUIMessageStreamResponse()`. */
export function nativeChatResponse(turns: Turn[]): Response {
  return nativeResult(turns).toUIMessageStreamResponse({ onError: nativeErrorText });
}

/** A stream of chunks as a `ReadableStream`, for `readUIMessageStream`. */
export function chunkStream(
  chunks: AsyncIterable<UIMessageChunk>,
): ReadableStream<AiUIMessageChunk> {
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value as AiUIMessageChunk);
    },
  });
}

/** The last message `readUIMessageStream` builds from `stream`, and the errors it reported. */
export async function readMessage(stream: ReadableStream<AiUIMessageChunk>) {
  const errors: unknown[] = [];
  let message: AiUIMessage | undefined;
  for await (const m of readUIMessageStream({ stream, onError: (e) => errors.push(e) })) {
    message = m;
  }
  return { message: message as AiUIMessage, errors };
}

/**
 * A message as the page renders it, with only what may legitimately differ between the
 * two backends taken out (decision 259):
 * - message ids: fino's assistant message is its run (`run_…`), the AI SDK makes its own id;
 * - `approval.id`: fino's names the run and the call (`run/call`, so a decision finds its
 *   run), the AI SDK's is a random id — both are opaque to the page, which only echoes it;
 * - a reasoning part's id: fino's is deterministic (`reasoning-<step>-<n>`, the same on a
 *   replay), the AI SDK passes on the model's;
 * - `metadata.fino` (run id, status, usage, cost): fino's message metadata, which the AI
 *   SDK's backend sends none of unless the app writes `messageMetadata`;
 * - `data-fino-*` parts: fino's progress, log and error events as the protocol's data parts
 *   (issue 28: nothing is silently dropped) — the AI SDK has no such events;
 * - provider metadata (`providerMetadata`, `callProviderMetadata`): each backend's model
 *   says what it says about itself.
 */
export function comparable(message: AiUIMessage): AiUIMessage {
  const { fino: _fino, ...metadata } = (message.metadata ?? {}) as Record<string, unknown>;
  const parts = structuredClone(message.parts)
    .filter((part) => !part.type.startsWith('data-fino-'))
    .map((part) => {
      const {
        providerMetadata: _provider,
        callProviderMetadata: _call,
        ...rest
      } = part as Record<string, unknown>;
      if (rest.approval) rest.approval = { ...(rest.approval as object), id: '…' };
      if (rest.type === 'reasoning') rest.id = '…';
      return rest as AiUIMessage['parts'][number];
    });
  return {
    id: '…',
    role: message.role,
    parts,
    ...(Object.keys(metadata).length > 0 && { metadata }),
  };
}

/** The types of the chunks of `stream`, fino's data parts left out. */
export async function chunkTypes(stream: ReadableStream<AiUIMessageChunk>): Promise<string[]> {
  const types: string[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<AiUIMessageChunk>) {
    if (!chunk.type.startsWith('data-fino-')) types.push(chunk.type);
  }
  return types;
}

/** One SSE event of a response as `ai`'s client parses it: valid per its chunk schema, or not. */
export type ParsedEvent = { success: boolean; value?: AiUIMessageChunk; error?: unknown };

/** Every event of a response's body, parsed and validated as `ai`'s client does. */
export async function parsedEvents(response: Response): Promise<ParsedEvent[]> {
  const stream = parseJsonEventStream({
    stream: response.body as ReadableStream<Uint8Array>,
    schema: uiMessageChunkSchema,
  });
  const events: ParsedEvent[] = [];
  for await (const event of stream as unknown as AsyncIterable<ParsedEvent>) events.push(event);
  return events;
}
