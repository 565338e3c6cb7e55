import { type ContentPart, isRecord, type ModelMessage, type ModelWarning } from '../core/index.ts';
import { dropped, partsOf, partsToSend, textOf } from '../provider/index.ts';

/** One Gemini `Part` as sent. */
export type GeminiPart = Record<string, unknown>;

/** One Gemini `Content`: a turn of `user` or `model`. */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** The provider name under which Gemini data travels in `providerMetadata`. */
export const GEMINI = 'gemini';

/** What Gemini attaches to a function call and needs back with it. */
export interface GeminiCallMetadata {
  /** The `functionCall.id` Gemini issued (absent when the adapter had to make one up). */
  id?: string;
  /** The opaque `thoughtSignature` that came with the call, returned unchanged. */
  thoughtSignature?: string;
}

/**
 * The function calls sent so far, by call id: a later `functionResponse` needs the
 * function's name and the id Gemini issued.
 */
type SentCalls = Map<string, { name: string; meta: GeminiCallMetadata }>;

/**
 * Converts messages to Gemini `contents` and a `systemInstruction`: system messages join
 * the instruction; `tool_use` parts become `functionCall` parts (with the `id` and
 * `thoughtSignature` Gemini issued, from `providerMetadata.gemini`); `tool_result` parts
 * become `functionResponse` parts (named after their call, first in their user turn);
 * Gemini's own reasoning parts go back as `thought` parts; consecutive turns of one role
 * are merged.
 */
export function toGeminiContents(
  system: string | undefined,
  messages: ModelMessage[],
  warnings: ModelWarning[],
): { systemInstruction?: { parts: GeminiPart[] }; contents: GeminiContent[] } {
  const prompts = system ? [system] : [];
  const calls: SentCalls = new Map();
  const contents: GeminiContent[] = [];
  messages.forEach((message, i) => {
    if (message.role === 'system') {
      prompts.push(textOf(partsOf(message)));
      return;
    }
    const role = message.role === 'assistant' ? 'model' : 'user';
    const parts =
      role === 'model'
        ? modelParts(partsToSend(message, GEMINI), i, calls, warnings)
        : userParts(partsOf(message), i, calls, warnings);
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  });
  for (const content of contents) {
    if (content.role === 'user') {
      content.parts.sort(
        (a, b) => Number('functionResponse' in b) - Number('functionResponse' in a),
      );
    }
  }
  const prompt = prompts.filter((p) => p !== '').join('\n\n');
  return prompt ? { systemInstruction: { parts: [{ text: prompt }] }, contents } : { contents };
}

/** The Gemini metadata of a `tool_use` part, when it carries any. */
function callMetadataOf(part: ContentPart & { type: 'tool_use' }): GeminiCallMetadata {
  const meta = part.providerMetadata?.[GEMINI];
  if (!isRecord(meta)) return {};
  const out: GeminiCallMetadata = {};
  if (typeof meta.id === 'string') out.id = meta.id;
  if (typeof meta.thoughtSignature === 'string') out.thoughtSignature = meta.thoughtSignature;
  return out;
}

function modelParts(
  parts: ContentPart[],
  i: number,
  calls: SentCalls,
  warnings: ModelWarning[],
): GeminiPart[] {
  const out: GeminiPart[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      if (part.text !== '') out.push({ text: part.text });
    } else if (part.type === 'tool_use') {
      const meta = callMetadataOf(part);
      calls.set(part.id, { name: part.name, meta });
      if (!isRecord(part.args)) {
        warnings.push({
          message: `messages[${i}]: tool_use ${part.id} had arguments that are not an object: sent as {}`,
        });
      }
      const functionCall: GeminiPart = {
        name: part.name,
        args: isRecord(part.args) ? part.args : {},
      };
      if (meta.id !== undefined) functionCall.id = meta.id;
      const wire: GeminiPart = { functionCall };
      if (meta.thoughtSignature !== undefined) wire.thoughtSignature = meta.thoughtSignature;
      out.push(wire);
    } else if (part.type === 'reasoning') {
      if (part.provider !== GEMINI) continue;
      if (part.text === '' && part.signature !== undefined) {
        // A signature that came with the text before it (or alone, in an empty part).
        const previous = out.at(-1);
        if (previous && typeof previous.text === 'string' && !previous.thoughtSignature) {
          previous.thoughtSignature = part.signature;
        } else out.push({ text: '', thoughtSignature: part.signature });
        continue;
      }
      const wire: GeminiPart = { text: part.text, thought: true };
      if (part.signature !== undefined) wire.thoughtSignature = part.signature;
      out.push(wire);
    } else {
      warnings.push(dropped(part, i, 'model turns carry only text, reasoning and function calls'));
    }
  }
  return out;
}

function userParts(
  parts: ContentPart[],
  i: number,
  calls: SentCalls,
  warnings: ModelWarning[],
): GeminiPart[] {
  const out: GeminiPart[] = [];
  for (const part of parts) {
    if (part.type === 'tool_result') {
      const call = calls.get(part.toolCallId);
      if (!call) {
        throw new TypeError(
          `gemini: messages[${i}]: tool_result for ${JSON.stringify(part.toolCallId)}: expected a tool_use with that id in an earlier assistant message, received none (Gemini needs the function's name)`,
        );
      }
      const text = textOf(part.content);
      const functionResponse: GeminiPart = {
        name: call.name,
        response: part.isError ? { error: text } : { output: text },
      };
      if (call.meta.id !== undefined) functionResponse.id = call.meta.id;
      out.push({ functionResponse });
      if (typeof part.content !== 'string') {
        // Text (and resource text) went into `output`; the rest follows as inline data.
        const media = part.content.filter(
          (p) => p.type !== 'text' && !(p.type === 'resource' && p.text !== undefined),
        );
        if (media.length > 0) {
          warnings.push({
            message: `messages[${i}]: tool_result ${part.toolCallId}: its ${media.map((p) => p.type).join(', ')} parts follow as inline data in the same user turn`,
          });
          for (const item of media) out.push(...mediaPart(item, i, warnings));
        }
      }
    } else if (part.type === 'text') {
      if (part.text !== '') out.push({ text: part.text });
    } else {
      out.push(...mediaPart(part, i, warnings));
    }
  }
  return out;
}

function mediaPart(part: ContentPart, i: number, warnings: ModelWarning[]): GeminiPart[] {
  switch (part.type) {
    case 'image':
    case 'audio':
    case 'document':
      return [{ inlineData: { mimeType: part.mediaType, data: part.data } }];
    case 'resource':
      if (part.text !== undefined) return part.text === '' ? [] : [{ text: part.text }];
      if (part.data !== undefined && part.mediaType) {
        return [{ inlineData: { mimeType: part.mediaType, data: part.data } }];
      }
      warnings.push(dropped(part, i, 'a resource needs text, or data with a media type'));
      return [];
    default:
      warnings.push(dropped(part, i, 'user turns carry only text, media and function responses'));
      return [];
  }
}
