/**
 * Reading a message's content parts while translating it to a provider's wire format,
 * and the warning for a part a provider cannot carry.
 */
import type { ContentPart, ModelMessage, ModelWarning } from './types.ts';

/** A message's parts, a plain string being one text part. */
export function partsOf(message: ModelMessage): ContentPart[] {
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : message.content;
}

/** Text of a tool result's content: strings and text parts joined, other parts ignored. */
export function textOf(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) =>
      part.type === 'text' ? part.text : part.type === 'resource' ? (part.text ?? '') : '',
    )
    .filter((text) => text !== '')
    .join('\n');
}

/** Decodes a base64 text document. */
export function decodeBase64Text(data: string): string {
  return Buffer.from(data, 'base64').toString('utf8');
}

/** A warning for a part of `messages[i]` that could not be sent. */
export function dropped(part: ContentPart, i: number, why: string): ModelWarning {
  return { message: `messages[${i}]: ${part.type} part not sent: ${why}` };
}
