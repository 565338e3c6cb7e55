/**
 * A stored message as a person reads it: who it is from and its text, tool calls and
 * results written out. The one rendering the inbox's pages and `fino sessions show` share.
 */
import type { ContentPart, ModelMessage } from '../model/index.ts';

/** `value` as indented JSON (or its string form when it has none). */
export const pretty = (value: unknown): string => {
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
};

const partText = (part: ContentPart): string => {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'tool_use':
      return `→ ${part.name}(${pretty(part.args)})`;
    case 'tool_result': {
      const body =
        typeof part.content === 'string' ? part.content : part.content.map(partText).join('\n');
      return `← ${part.isError ? 'error: ' : ''}${body}`;
    }
    case 'resource':
      return `[resource ${part.uri}]`;
    case 'reasoning':
      return part.redacted !== undefined ? '[reasoning, redacted]' : `(reasoning) ${part.text}`;
    default:
      return `[${part.type} ${part.mediaType}]`;
  }
};

/**
 * Who a message is from, as a reader names it (tool results travel in `user` messages,
 * the model's wire format, but no user wrote them: they read "Tool result"), and its
 * text: text parts as they are, tool calls as `→ name(args)`, results as `← result`,
 * media as `[image image/png]`. Not escaped: escape it for HTML or a terminal.
 *
 * @example
 * ```ts
 * import { describeMessage } from 'fino:ai/session';
 *
 * const result = { type: 'tool_result' as const, toolCallId: 'c1', content: 'shipped' };
 * console.log(describeMessage({ role: 'user', content: [result] })); // { role: 'Tool result', text: '← shipped' }
 * ```
 */
export function describeMessage(message: ModelMessage): { role: string; text: string } {
  const parts = typeof message.content === 'string' ? [] : message.content;
  const role =
    parts.length > 0 && parts.every((part) => part.type === 'tool_result')
      ? parts.length === 1
        ? 'Tool result'
        : 'Tool results'
      : ({ system: 'System', user: 'User', assistant: 'Assistant' }[message.role] ?? message.role);
  const text =
    typeof message.content === 'string' ? message.content : parts.map(partText).join('\n');
  return { role, text };
}
