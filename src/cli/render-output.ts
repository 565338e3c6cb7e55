/**
 * Turns what a task returned into what `fino run` prints.
 */
import type { ContentPart, OutputMode } from '../task/index.ts';
import { safeJson } from './escape-text.ts';

/** The text to print and whether the task reported a failure (`isError`). */
export interface RenderedOutput {
  text: string;
  isError: boolean;
}

const partText = (part: ContentPart): string => {
  if (part.type === 'text') return part.text;
  if (part.type === 'resource' && part.text !== undefined) return part.text;
  return JSON.stringify(part);
};

/**
 * JSON mode prints the output as JSON (with DEL, C1 and bidi controls as `\u` escapes:
 * the same value, safe on a terminal). Text mode prints a string as is, a tool result's
 * text parts (other parts as JSON lines), and anything else as JSON.
 */
export function renderOutput(output: unknown, mode: OutputMode): RenderedOutput {
  const isError =
    typeof output === 'object' &&
    output !== null &&
    (output as { isError?: unknown }).isError === true;
  if (mode === 'json') return { text: safeJson(output ?? null, 2), isError };
  if (output === undefined) return { text: '', isError };
  if (typeof output === 'string') return { text: output, isError };
  if (typeof output === 'object' && output !== null && 'content' in output) {
    const content = (output as { content: unknown }).content;
    const parts = Array.isArray(content) ? content : [content];
    const text = parts
      .map((part) => (typeof part === 'string' ? part : partText(part as ContentPart)))
      .join('\n');
    return { text, isError };
  }
  return { text: JSON.stringify(output, null, 2), isError };
}
