/**
 * Reading a Gemini answer into a {@link GeminiTurn}: a whole `GenerateContentResponse`, or
 * the chunks of a stream; a prompt Gemini blocked ends the turn as `content_filter`.
 */
import {
  type GenerateResult,
  isRecord,
  ModelError,
  type ModelWarning,
  type StreamEvent,
  type Usage,
} from '../core/index.ts';
import { type EventStream, streamError } from '../wire/index.ts';
import { GEMINI } from './messages.ts';
import { type GeminiTurn, usageFrom } from './turn.ts';

const PROVIDER = GEMINI;

/** Reads a whole answer into the turn. */
export function fromResponse(
  body: unknown,
  turn: GeminiTurn,
  warnings: ModelWarning[],
): GenerateResult {
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

/** Streams an answer's chunks into the turn; returns its result. */
export async function* streamResponse(
  { events, requestId }: EventStream,
  turn: GeminiTurn,
  warnings: ModelWarning[],
): AsyncGenerator<StreamEvent, GenerateResult> {
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
  return turn.finish(finish, usage, warnings, blocked);
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
