/**
 * Messages as Responses API input items. What a Responses turn produced goes back as the
 * very output items it came in (kept on each part's `providerMetadata.openai.item`):
 * reasoning items with their `encrypted_content`, messages, function calls and the calls
 * OpenAI's servers ran. Everything else is built from the provider-neutral parts.
 */
import { type ContentPart, isRecord, type ModelMessage, type ModelWarning } from '../core/index.ts';
import { dropped, partsOf, partsToSend, textOf } from '../provider/index.ts';
import { TOOL_ERROR_PREFIX } from './chat-messages.ts';
import { type OpenAIInput, openaiInput } from './input-parts.ts';

type Item = Record<string, unknown>;
type InputPart = Record<string, unknown>;

const PROVIDER = 'openai';

/** The output item a part of a Responses turn came from, when it carries one. */
export function responsesItemOf(part: ContentPart): Item | undefined {
  if (part.type !== 'text' && part.type !== 'reasoning' && part.type !== 'tool_use') {
    return undefined;
  }
  const meta = part.providerMetadata?.[PROVIDER];
  return isRecord(meta) && isRecord(meta.item) ? meta.item : undefined;
}

/**
 * The conversation as `input` items: system messages as `system` messages, assistant
 * turns as their output items, tool results as `function_call_output` items (an answer
 * to a remote MCP approval request as its `mcp_approval_response`).
 */
export function toResponsesInput(messages: ModelMessage[], warnings: ModelWarning[]): Item[] {
  const out: Item[] = [];
  const sent = new Set<Item>();
  const approvals = new Set<string>();
  messages.forEach((message, i) => {
    if (message.role === 'system') {
      out.push({ role: 'system', content: textOf(partsOf(message)) });
    } else if (message.role === 'assistant') {
      const parts = partsToSend(message, PROVIDER);
      out.push(...assistantItems(parts, i, sent, approvals, warnings));
    } else {
      out.push(...userItems(message, i, approvals, warnings));
    }
  });
  return out;
}

function assistantItems(
  parts: ContentPart[],
  i: number,
  sent: Set<Item>,
  approvals: Set<string>,
  warnings: ModelWarning[],
): Item[] {
  const out: Item[] = [];
  let text = '';
  const flushText = () => {
    if (text !== '') out.push({ role: 'assistant', content: text });
    text = '';
  };
  for (const part of parts) {
    const item = responsesItemOf(part);
    if (item) {
      flushText();
      if (!sent.has(item)) out.push(item);
      sent.add(item);
      if (item.type === 'mcp_approval_request' && part.type === 'tool_use') approvals.add(part.id);
    } else if (part.type === 'text') {
      text += part.text;
    } else if (part.type === 'tool_use' && part.provider === undefined) {
      flushText();
      const args = typeof part.args === 'string' ? part.args : JSON.stringify(part.args ?? {});
      out.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: args });
    } else if (part.type === 'reasoning' || part.type === 'tool_result') {
      // Another provider's reasoning, or the result of a call OpenAI ran (its item holds it).
    } else {
      warnings.push(dropped(part, i, 'assistant messages carry only text and tool calls'));
    }
  }
  flushText();
  return out;
}

function userItems(
  message: ModelMessage,
  i: number,
  approvals: Set<string>,
  warnings: ModelWarning[],
): Item[] {
  if (typeof message.content === 'string') return [{ role: 'user', content: message.content }];
  const items: Item[] = [];
  const content: InputPart[] = [];
  for (const part of message.content) {
    if (part.type !== 'tool_result') {
      pushInputPart(content, part, i, warnings, true);
    } else if (approvals.has(part.toolCallId)) {
      const answer: Item = {
        type: 'mcp_approval_response',
        approval_request_id: part.toolCallId,
        approve: part.isError !== true,
      };
      if (part.isError) answer.reason = textOf(part.content);
      items.push(answer);
    } else {
      items.push({
        type: 'function_call_output',
        call_id: part.toolCallId,
        output: toolOutput(part, i, warnings),
      });
    }
  }
  return content.length ? [...items, { role: 'user', content }] : items;
}

/** A tool result's output: its text, or input parts when it carries images or files. */
function toolOutput(
  part: Extract<ContentPart, { type: 'tool_result' }>,
  i: number,
  warnings: ModelWarning[],
): string | InputPart[] {
  const prefix = part.isError ? TOOL_ERROR_PREFIX : '';
  if (typeof part.content === 'string') return `${prefix}${part.content}`;
  const textOnly = part.content.every(
    (p) => p.type === 'text' || (p.type === 'resource' && p.data === undefined),
  );
  if (textOnly) return `${prefix}${textOf(part.content)}`;
  const out: InputPart[] = prefix ? [{ type: 'input_text', text: TOOL_ERROR_PREFIX.trim() }] : [];
  for (const item of part.content) pushInputPart(out, item, i, warnings, false);
  return out;
}

function pushInputPart(
  out: InputPart[],
  part: ContentPart,
  i: number,
  warnings: ModelWarning[],
  audio: boolean,
): void {
  if (part.type === 'audio' && !audio) {
    warnings.push(dropped(part, i, 'tool outputs carry text, images and files'));
    return;
  }
  const input = openaiInput(part, i, warnings);
  if (input) out.push(responsesPart(input));
}

/** A part as a Responses input part. */
function responsesPart(input: OpenAIInput): InputPart {
  switch (input.type) {
    case 'text':
      return { type: 'input_text', text: input.text };
    case 'image':
      return { type: 'input_image', image_url: input.url, detail: 'auto' };
    case 'file':
      return { type: 'input_file', filename: input.filename, file_data: input.url };
    case 'audio':
      return { type: 'input_audio', input_audio: { data: input.data, format: input.format } };
  }
}
