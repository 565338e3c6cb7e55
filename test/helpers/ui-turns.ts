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
import { type ScriptedTurn, scriptedModel } from '../../src/ai/model/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import type { UIMessageChunk } from '../../src/ai/ui/index.ts';
import { v } from '../../src/validate/index.ts';

/** One model turn, written once for both backends. */
export interface Turn {
  reasoning?: string;
  text?: string;
  calls?: { id: string; name: string; input: Record<string, unknown> }[];
  /** The model fails (before any output) with this message. */
  error?: string;
}

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

/** The fino agent's stream of chunks for `turns` (its `readUIMessageStream` input). */
export function finoTurns(turns: Turn[]): ScriptedTurn[] {
  return turns.map((turn) =>
    turn.error
      ? new Error(turn.error)
      : {
          reasoning: turn.reasoning,
          text: turn.text,
          toolCalls: turn.calls?.map((call) => ({
            id: call.id,
            name: call.name,
            args: call.input,
          })),
          usage: { inputTokens: 3, outputTokens: 2 },
        },
  );
}

/** A fino agent answering with `turns`. */
export function finoAgent(turns: Turn[]) {
  return agent({ name: 'assistant', model: scriptedModel(finoTurns(turns)), tools: finoTools });
}

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

/** The stream parts of one turn for `MockLanguageModelV4`. */
function modelParts(turn: Turn) {
  if (turn.error) return [{ type: 'error' as const, error: new Error(turn.error) }];
  const parts: unknown[] = [{ type: 'stream-start', warnings: [] }];
  if (turn.reasoning) {
    parts.push({ type: 'reasoning-start', id: 'r' });
    parts.push({ type: 'reasoning-delta', id: 'r', delta: turn.reasoning });
    parts.push({ type: 'reasoning-end', id: 'r' });
  }
  if (turn.text) {
    parts.push({ type: 'text-start', id: 't' });
    parts.push({ type: 'text-delta', id: 't', delta: turn.text });
    parts.push({ type: 'text-end', id: 't' });
  }
  for (const call of turn.calls ?? []) {
    const input = JSON.stringify(call.input);
    parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input });
  }
  const unified = turn.calls?.length ? 'tool-calls' : 'stop';
  parts.push({ type: 'finish', finishReason: { unified, raw: undefined }, usage });
  return parts;
}

/** The AI SDK's own UI message stream for `turns`: `streamText(...).toUIMessageStream()`. */
export function nativeStream(turns: Turn[]): ReadableStream<AiUIMessageChunk> {
  let next = 0;
  const model = new MockLanguageModelV4({
    doStream: async () => {
      const parts = modelParts(turns[next++]);
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part as never);
            controller.close();
          },
        }),
      };
    },
  });
  const result = streamText({
    model,
    prompt: 'hi',
    tools: aiTools,
    stopWhen: isStepCount(10),
    onError: () => {},
  });
  return result.toUIMessageStream({ onError: (error) => (error as Error).message });
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
 * A message's parts (none for no message) without fino's data parts, with the ids each
 * backend makes its own way (approval and reasoning ids) set to `…`.
 */
export function normalisedParts(message: AiUIMessage | undefined, keepData = false) {
  return structuredClone(message?.parts ?? [])
    .filter((part) => keepData || !part.type.startsWith('data-fino-'))
    .map((part) => {
      const p = part as Record<string, unknown>;
      if (p.type === 'reasoning') p.id = '…';
      if (p.approval) p.approval = { ...(p.approval as object), id: '…' };
      return p;
    });
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
