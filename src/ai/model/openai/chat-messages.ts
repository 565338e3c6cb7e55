import type { ContentPart, ModelMessage, ModelWarning } from '../core/index.ts';
import { dropped, partsOf, partsToSend, textOf } from '../provider/index.ts';
import { type OpenAIInput, openaiInput } from './input-parts.ts';

type WireMessage = Record<string, unknown>;
type WirePart = Record<string, unknown>;

/**
 * Converts messages to Chat Completions messages: `tool_use` parts become the assistant's
 * `tool_calls`, `tool_result` parts become `tool` messages (which carry text only, so
 * their images and documents follow in a user message), media become data URLs.
 */
export function toOpenAIMessages(
  system: string | undefined,
  messages: ModelMessage[],
  warnings: ModelWarning[],
): WireMessage[] {
  const out: WireMessage[] = system ? [{ role: 'system', content: system }] : [];
  messages.forEach((message, i) => {
    if (message.role === 'system') {
      out.push({ role: 'system', content: textOf(partsOf(message)) });
    } else if (message.role === 'assistant') {
      // Calls OpenAI's servers ran (Responses API tools) have no Chat Completions form either.
      out.push(assistantMessage(partsToSend(message, ''), i, warnings));
    } else {
      out.push(...userMessages(message, i, warnings));
    }
  });
  return out;
}

function assistantMessage(parts: ContentPart[], i: number, warnings: ModelWarning[]): WireMessage {
  const text: string[] = [];
  const calls: WirePart[] = [];
  for (const part of parts) {
    if (part.type === 'text') text.push(part.text);
    else if (part.type === 'tool_use') {
      const args = typeof part.args === 'string' ? part.args : JSON.stringify(part.args ?? {});
      calls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: args } });
    } else if (part.type === 'reasoning') {
      // Chat Completions takes no reasoning back: the model's own reasoning stays server-side.
    } else warnings.push(dropped(part, i, 'assistant messages carry only text and tool calls'));
  }
  const message: WireMessage = { role: 'assistant', content: text.length ? text.join('') : null };
  if (calls.length) message.tool_calls = calls;
  return message;
}

function userMessages(message: ModelMessage, i: number, warnings: ModelWarning[]): WireMessage[] {
  if (typeof message.content === 'string') return [{ role: 'user', content: message.content }];
  const tools: WireMessage[] = [];
  const content: WirePart[] = [];
  for (const part of message.content) {
    if (part.type === 'tool_result') {
      tools.push({ role: 'tool', tool_call_id: part.toolCallId, content: toolText(part) });
      const media = typeof part.content === 'string' ? [] : part.content.filter(isMedia);
      if (media.length) {
        content.push({ type: 'text', text: `Attachments of tool call ${part.toolCallId}:` });
        for (const item of media) pushPart(content, item, i, warnings);
        warnings.push({
          message: `messages[${i}]: media of tool result ${part.toolCallId} sent in a user message (Chat Completions tool messages carry text only)`,
        });
      }
    } else pushPart(content, part, i, warnings);
  }
  return content.length ? [...tools, { role: 'user', content }] : tools;
}

/** The error marker that stands in for the `isError` flag tool messages lack (docs/decisions/077). */
export const TOOL_ERROR_PREFIX = 'Error: ';

/** A tool result's text; a failed result starts with {@link TOOL_ERROR_PREFIX}. */
function toolText(part: Extract<ContentPart, { type: 'tool_result' }>): string {
  const text = textOf(part.content);
  return part.isError ? `${TOOL_ERROR_PREFIX}${text}` : text;
}

function isMedia(part: ContentPart): boolean {
  return (
    part.type === 'image' ||
    part.type === 'document' ||
    part.type === 'audio' ||
    (part.type === 'resource' && part.data !== undefined)
  );
}

function pushPart(out: WirePart[], part: ContentPart, i: number, warnings: ModelWarning[]): void {
  const input = openaiInput(part, i, warnings);
  if (input) out.push(chatPart(input));
}

/** A part as Chat Completions content. */
function chatPart(input: OpenAIInput): WirePart {
  switch (input.type) {
    case 'text':
      return { type: 'text', text: input.text };
    case 'image':
      return { type: 'image_url', image_url: { url: input.url } };
    case 'file':
      return { type: 'file', file: { filename: input.filename, file_data: input.url } };
    case 'audio':
      return { type: 'input_audio', input_audio: { data: input.data, format: input.format } };
  }
}
