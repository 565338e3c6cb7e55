/**
 * Turns whatever an executor returned into the tool_result contract.
 */
import type { ContentPart, TextPart, ToolResultObject } from './content.ts';

const hasContent = (value: unknown): value is ToolResultObject =>
  typeof value === 'object' && value !== null && 'content' in value;

/**
 * A string becomes `{ content }`; an object with `content` is returned as is; anything
 * else becomes its JSON text (`undefined` an empty string). Text the executor wrote
 * through its writer comes first. Throws when the value cannot be serialized as JSON.
 */
export function normalizeResult(value: unknown, written = ''): ToolResultObject {
  if (hasContent(value)) {
    if (written === '') return value;
    const text: TextPart = { type: 'text', text: written };
    const rest: ContentPart[] =
      typeof value.content === 'string'
        ? [{ type: 'text', text: value.content }]
        : Array.isArray(value.content)
          ? value.content
          : [value.content];
    return { ...value, content: [text, ...rest] };
  }
  if (typeof value === 'string') return { content: written + value };
  if (value === undefined) return { content: written };
  const json = JSON.stringify(value);
  return { content: written + (json ?? String(value)) };
}
