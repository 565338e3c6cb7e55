import { randomUUID } from 'node:crypto';
import {
  type AnswerSize,
  type ContentPart,
  type GenerateResult,
  isRecord,
  type ModelWarning,
  parseToolArgs,
  type StopReason,
  type StreamEvent,
  type ToolCall,
  type Usage,
  usageOf,
} from '../core/index.ts';
import { wireCount } from '../usage/index.ts';
import { GEMINI, type GeminiCallMetadata } from './messages.ts';

/**
 * Assembles one Gemini model turn from response parts — whole, or chunk by chunk while
 * streaming — into content parts, stream events and the {@link GenerateResult}.
 * Gemini sends each function call whole, so there are no argument fragments to join;
 * text and thought summaries arrive in pieces and are joined per run. Every piece kept is
 * counted by the call's {@link AnswerSize}.
 */
export class GeminiTurn {
  private readonly content: ContentPart[] = [];
  private readonly toolCalls: ToolCall[] = [];
  private text = '';

  /** `parseOutput`: parse the final text as the structured answer (`result.output`). */
  constructor(
    private readonly size: AnswerSize,
    private readonly parseOutput = false,
  ) {}

  /** Takes one `Part` of a candidate's content; returns the stream events it makes. */
  add(part: unknown): StreamEvent[] {
    if (!isRecord(part)) return [];
    const signature =
      typeof part.thoughtSignature === 'string' && part.thoughtSignature !== ''
        ? part.thoughtSignature
        : undefined;
    if (isRecord(part.functionCall)) return this.addCall(part.functionCall, signature);
    if (part.thought === true) return this.addReasoning(stringOf(part.text), signature);
    const events = this.addText(stringOf(part.text));
    // A signature on a text part (or alone, on an empty one) stays where it came: right after that text.
    if (signature) {
      this.size.add('reasoning', signature.length);
      this.content.push({ type: 'reasoning', text: '', signature, provider: GEMINI });
    }
    return events;
  }

  /** The whole turn; `blocked` when Gemini refused the prompt itself (`promptFeedback.blockReason`). */
  finish(
    finishReason: string | undefined,
    usage: Usage,
    warnings: ModelWarning[],
    blocked = false,
  ): GenerateResult {
    const result: GenerateResult = {
      message: { role: 'assistant', content: this.content },
      text: this.text,
      toolCalls: this.toolCalls,
      stopReason: blocked
        ? 'content_filter'
        : stopReasonOf(finishReason, this.toolCalls.length > 0),
      usage,
    };
    if (finishReason !== undefined) result.rawStopReason = finishReason;
    if (this.parseOutput && this.toolCalls.length === 0 && this.text.trim() !== '') {
      const parsed = parseToolArgs(this.text);
      if (parsed.argsError === undefined) result.output = parsed.args;
    }
    if (warnings.length > 0) result.warnings = warnings;
    return result;
  }

  private addText(text: string): StreamEvent[] {
    if (text === '') return [];
    this.size.add('text', text.length);
    this.text += text;
    const last = this.content.at(-1);
    if (last?.type === 'text') last.text += text;
    else this.content.push({ type: 'text', text });
    return [{ type: 'text-delta', text }];
  }

  private addReasoning(text: string, signature: string | undefined): StreamEvent[] {
    if (text !== '' || signature)
      this.size.add('reasoning', text.length + (signature?.length ?? 0));
    const last = this.content.at(-1);
    // A run of thought pieces is one part until a signature closes it.
    if (last?.type === 'reasoning' && last.provider === GEMINI && last.signature === undefined) {
      last.text += text;
      if (signature) last.signature = signature;
    } else if (text !== '' || signature) {
      const part: ContentPart = { type: 'reasoning', text, provider: GEMINI };
      if (signature) part.signature = signature;
      this.content.push(part);
    }
    return text === '' ? [] : [{ type: 'reasoning-delta', text }];
  }

  private addCall(call: Record<string, unknown>, signature: string | undefined): StreamEvent[] {
    this.size.addValue('tool call', call);
    const name = stringOf(call.name);
    const given = typeof call.id === 'string' && call.id !== '' ? call.id : undefined;
    const id = given ?? `gemini_${randomUUID()}`;
    const toolCall: ToolCall = { id, name, args: call.args ?? {} };
    if (!isRecord(toolCall.args)) {
      toolCall.argsError = `Expected the arguments as a JSON object, received ${JSON.stringify(call.args).slice(0, 200)}`;
    }
    const meta: GeminiCallMetadata = {};
    if (given) meta.id = given;
    if (signature) meta.thoughtSignature = signature;
    const part: ContentPart = { type: 'tool_use', id, name, args: toolCall.args };
    if (Object.keys(meta).length > 0) part.providerMetadata = { [GEMINI]: meta };
    this.content.push(part);
    const index = this.toolCalls.length;
    this.toolCalls.push(toolCall);
    return [
      { type: 'tool-call-start', id, name, index },
      { type: 'tool-call-delta', id, argsText: JSON.stringify(toolCall.args) ?? '', index },
      { type: 'tool-call-end', call: toolCall, index },
    ];
  }
}

/**
 * Gemini's `finishReason` as a {@link StopReason}. Gemini says `STOP` also when the turn
 * ends in function calls, so calls make it `tool_calls`. The blocked-content reasons
 * (`SAFETY`, `RECITATION`, `BLOCKLIST`, …) and a blocked prompt are `content_filter`.
 */
export function stopReasonOf(raw: string | undefined, hasCalls: boolean): StopReason {
  switch (raw) {
    case 'STOP':
      return hasCalls ? 'tool_calls' : 'end';
    case 'MAX_TOKENS':
      return 'max_tokens';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
    case 'LANGUAGE':
      return 'content_filter';
    default:
      return hasCalls ? 'tool_calls' : 'other';
  }
}

/**
 * Usage from Gemini's `usageMetadata`: input is the prompt plus tool-use prompt tokens
 * (cached content included, and reported apart); output is the candidates plus the
 * thinking tokens (reported apart), as Gemini bills them.
 */
export function usageFrom(value: unknown): Usage {
  if (!isRecord(value)) return usageOf();
  const count = (key: string) => wireCount(value[key]) ?? 0;
  const thoughts = count('thoughtsTokenCount');
  const input = count('promptTokenCount') + count('toolUsePromptTokenCount');
  const output = count('candidatesTokenCount') + thoughts;
  const usage = usageOf(input, output, wireCount(value.totalTokenCount));
  const cached = count('cachedContentTokenCount');
  if (cached !== 0) usage.cachedInputTokens = cached;
  if (thoughts !== 0) usage.reasoningTokens = thoughts;
  return usage;
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
