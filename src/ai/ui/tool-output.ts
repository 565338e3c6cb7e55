/**
 * One rule for a tool result in a UI message, both ways: what a tool part's `output`
 * holds for a fino tool result (live streams and thread messages alike), and the result
 * content a posted `output` stands for.
 */
import type { ContentPart, ToolResultPart } from '../../task/index.ts';

/**
 * The `output` of a tool part for a fino tool result: its text when the result is text
 * only (parts joined by a blank line), else the result's content parts as they are
 * (images, audio and documents with their `mediaType` and base64 `data`).
 *
 * @example
 * ```ts
 * import { uiToolOutput } from 'fino:ai/ui';
 *
 * uiToolOutput({ content: 'refund filed' }); // → 'refund filed'
 * ```
 */
export function uiToolOutput(result: Pick<ToolResultPart, 'content'>): string | ContentPart[] {
  const { content } = result;
  if (typeof content === 'string') return content;
  if (content.every((part) => part.type === 'text')) {
    return content.map((part) => part.text).join('\n\n');
  }
  return content;
}

/**
 * The `errorText` of a tool part for a fino tool result with `isError`: its text parts,
 * joined by a blank line (an error's other parts have no place in the protocol's text).
 *
 * @example
 * ```ts
 * import { uiToolErrorText } from 'fino:ai/ui';
 *
 * uiToolErrorText({ content: [{ type: 'text', text: 'order not found' }] }); // → 'order not found'
 * ```
 */
export function uiToolErrorText(result: Pick<ToolResultPart, 'content'>): string {
  const { content } = result;
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n\n');
}

/**
 * The content of a fino tool result for a tool part's `output`: a string as it is, an
 * array of fino content parts as it is, anything else as its JSON text.
 *
 * @example
 * ```ts
 * import { toolResultContent } from 'fino:ai/ui';
 *
 * toolResultContent({ temperature: 21 }); // → '{"temperature":21}'
 * ```
 */
export function toolResultContent(output: unknown): string | ContentPart[] {
  if (typeof output === 'string') return output;
  if (Array.isArray(output) && output.length > 0 && output.every(isContentPart)) return output;
  return JSON.stringify(output) ?? 'null';
}

const isString = (value: unknown) => typeof value === 'string';

/** Which fields each fino content part a tool result may hold must carry, as strings. */
const REQUIRED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  text: ['text'],
  image: ['mediaType', 'data'],
  audio: ['mediaType', 'data'],
  document: ['mediaType', 'data'],
  resource: ['uri'],
};

/** A whole fino content part a tool result may hold (what {@link uiToolOutput} passes through). */
function isContentPart(value: unknown): value is ContentPart {
  if (typeof value !== 'object' || value === null) return false;
  const part = value as Record<string, unknown>;
  const fields = isString(part.type) ? REQUIRED_FIELDS[part.type as string] : undefined;
  return fields !== undefined && Object.hasOwn(REQUIRED_FIELDS, part.type as string)
    ? fields.every((field) => isString(part[field]))
    : false;
}
