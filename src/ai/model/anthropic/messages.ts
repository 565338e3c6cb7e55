import { type ContentPart, isRecord, type ModelMessage, type ModelWarning } from '../core/index.ts';
import {
  decodeBase64Text,
  dropped,
  partsOf,
  partsToSend,
  resourceMedia,
  textOf,
} from '../provider/index.ts';

type ReasoningPart = Extract<ContentPart, { type: 'reasoning' }>;

type Block = Record<string, unknown>;
interface WireMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * Converts messages to Anthropic Messages: system messages join the top-level `system`
 * prompt; `tool_use` and `tool_result` parts become blocks (tool results first in their
 * user turn, as the API requires); consecutive turns of one role are merged.
 */
export function toAnthropicMessages(
  system: string | undefined,
  messages: ModelMessage[],
  warnings: ModelWarning[],
): { system?: string; messages: WireMessage[] } {
  const prompts = system ? [system] : [];
  const out: WireMessage[] = [];
  messages.forEach((message, i) => {
    if (message.role === 'system') {
      prompts.push(textOf(partsOf(message)));
      return;
    }
    const parts = partsToSend(message, 'anthropic');
    const blocks = blocksOf(parts, message.role, i, warnings);
    if (blocks.length === 0) return;
    const last = out.at(-1);
    if (last?.role === message.role) last.content.push(...blocks);
    else out.push({ role: message.role, content: blocks });
  });
  for (const message of out) {
    if (message.role === 'user') {
      message.content.sort(
        (a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'),
      );
    }
  }
  return prompts.length ? { system: prompts.join('\n\n'), messages: out } : { messages: out };
}

function blocksOf(
  parts: ContentPart[],
  role: 'user' | 'assistant',
  i: number,
  warnings: ModelWarning[],
): Block[] {
  const blocks: Block[] = [];
  for (const part of parts) {
    if (part.type === 'tool_use' && role === 'assistant') {
      if (!isRecord(part.args)) {
        warnings.push({
          message: `messages[${i}]: tool_use ${part.id} had arguments that are not an object: sent as {}`,
        });
      }
      blocks.push({
        type: 'tool_use',
        id: part.id,
        name: part.name,
        input: isRecord(part.args) ? part.args : {},
      });
    } else if (part.type === 'tool_result' && role === 'user') {
      const block: Block = {
        type: 'tool_result',
        tool_use_id: part.toolCallId,
        content:
          typeof part.content === 'string'
            ? part.content
            : part.content.flatMap((p) => mediaBlock(p, i, warnings)),
      };
      if (part.isError) block.is_error = true;
      blocks.push(block);
    } else if (part.type === 'reasoning') {
      if (role === 'assistant' && part.provider === 'anthropic') blocks.push(thinkingBlock(part));
    } else if (part.type === 'text') {
      if (part.text !== '') blocks.push({ type: 'text', text: part.text });
    } else if (role === 'user') {
      blocks.push(...mediaBlock(part, i, warnings));
    } else {
      warnings.push(dropped(part, i, 'assistant messages carry only text and tool calls'));
    }
  }
  return blocks;
}

/** A thinking block exactly as the API sent it: its signature or redacted data unchanged. */
function thinkingBlock(part: ReasoningPart): Block {
  if (part.redacted !== undefined) return { type: 'redacted_thinking', data: part.redacted };
  return { type: 'thinking', thinking: part.text, signature: part.signature ?? '' };
}

function mediaBlock(part: ContentPart, i: number, warnings: ModelWarning[]): Block[] {
  switch (part.type) {
    case 'text':
      return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    case 'image':
      if (!IMAGE_TYPES.has(part.mediaType)) break;
      return [{ type: 'image', source: base64(part.mediaType, part.data) }];
    case 'document': {
      const title = part.name ? { title: part.name } : {};
      if (part.mediaType === 'application/pdf') {
        return [{ type: 'document', source: base64(part.mediaType, part.data), ...title }];
      }
      if (part.mediaType.startsWith('text/')) {
        const source = {
          type: 'text',
          media_type: 'text/plain',
          data: decodeBase64Text(part.data),
        };
        return [{ type: 'document', source, ...title }];
      }
      break;
    }
    case 'resource': {
      if (part.text !== undefined) return [{ type: 'text', text: part.text }];
      const media = resourceMedia(part);
      if (media) return mediaBlock(media, i, warnings);
      break;
    }
  }
  const mediaType = 'mediaType' in part ? ` (${part.mediaType})` : '';
  warnings.push(dropped(part, i, `Anthropic Messages cannot carry this content${mediaType}`));
  return [];
}

function base64(mediaType: string, data: string) {
  return { type: 'base64', media_type: mediaType, data };
}
