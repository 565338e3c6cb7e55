import { showValue } from '../../internal/describe-value.ts';
import type { ContentPart, ToolCall, ToolDefinition } from '../model/index.ts';
import { AgentError } from './agent-error.ts';
import { describe } from './describe.ts';
import type { RunState, StoredResult, ToolResultPart } from './types.ts';

/** How many characters of one tool result reach the model by default (media count by base64 size). */
export const DEFAULT_MAX_RESULT_CHARS = 20_000;

/** The name of the built-in tool the model pages through cut results with. */
export const READ_RESULT = 'read_result';

/** The definition of `read_result`, offered to the model once a result of the run was cut. */
export const readResultDefinition: ToolDefinition = {
  name: READ_RESULT,
  description:
    'Read the next part of a tool result that was cut to fit the result budget. ' +
    'Call it with the id and offset given in the notice at the end of the cut result.',
  parameters: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The id of the cut result, from the notice.' },
      offset: {
        type: 'integer',
        minimum: 0,
        description: 'Where to continue, in characters, from the notice.',
      },
    },
    required: ['id', 'offset'],
    additionalProperties: false,
  },
};

/** The tools a model turn offers: the agent's, plus `read_result` once a result was cut. */
export function offeredTools(definitions: ToolDefinition[], state: RunState): ToolDefinition[] {
  return state.results && state.results.length > 0
    ? [...definitions, readResultDefinition]
    : definitions;
}

/** Checks a `maxResultChars` option: a positive integer or `Infinity` (no budget). */
export function checkMaxResultChars(where: string, value: unknown): number {
  if (typeof value !== 'number' || !(Number.isInteger(value) || value === Infinity) || value < 1) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${where}: expected a positive integer or Infinity, received ${describe(value)}`,
    );
  }
  return value;
}

/**
 * Cuts `part` to `maxChars` when it is longer: the model gets the first chunk and a
 * notice with a ready-to-use `read_result` call, and the full content is kept in
 * `state.results` (plain JSON, so paging works after a resume in another process).
 */
export function budgetResult(
  part: ToolResultPart,
  toolName: string,
  maxChars: number,
  state: RunState,
): ToolResultPart {
  const parts = partsOf(part.content);
  const size = sizeOf(parts);
  if (size <= maxChars) return part;
  state.results ??= [];
  const id = freshId(part.toolCallId, state.results);
  const stored: StoredResult = { id, toolName, content: part.content, maxChars, size };
  state.results.push(stored);
  return { ...part, content: page(stored, 0) };
}

/**
 * Answers a `read_result` call: the chunk of the stored result at `offset`, within the
 * result's budget, followed by a notice (the next call, or the end). Bad arguments, an
 * unknown id or an offset past the end get an `isError` result saying what was expected.
 * Besides cut results, it reads results the context step cleared (`<call id>@<message
 * index>`, from the run's messages), in chunks of `maxChars`.
 */
export function readResult(call: ToolCall, state: RunState, maxChars: number): ToolResultPart {
  const answer = (content: string | ContentPart[], isError?: true): ToolResultPart => ({
    type: 'tool_result',
    toolCallId: call.id,
    content,
    ...(isError ? { isError } : {}),
  });
  const args = call.args as { id?: unknown; offset?: unknown } | null;
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return answer(
      `Invalid arguments for tool "${READ_RESULT}": expected an object { "id": string, "offset": integer }, received ${describe(call.args)}.`,
      true,
    );
  }
  const { id, offset } = args;
  if (typeof id !== 'string') {
    return answer(
      `Invalid arguments for tool "${READ_RESULT}": expected "id" to be a string, received ${describe(id)}.`,
      true,
    );
  }
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    return answer(
      `Invalid arguments for tool "${READ_RESULT}": expected "offset" to be a non-negative integer, received ${describe(offset)}.`,
      true,
    );
  }
  const stored = state.results?.find((r) => r.id === id) ?? clearedResult(id, state, maxChars);
  if (!stored) {
    const known = (state.results ?? []).map((r) => JSON.stringify(r.id));
    return answer(
      `Unknown result id ${showValue(id)}. ${known.length === 0 ? 'No result of this run was cut.' : `Cut results: ${known.slice(-10).join(', ')}.`}`,
      true,
    );
  }
  if (offset >= stored.size) {
    return answer(
      `Offset ${offset} is past the end of result "${stored.id}", which has ${stored.size} characters.`,
      true,
    );
  }
  return answer(page(stored, offset));
}

/**
 * A result the context step sent as a placeholder, found in the run's messages by the
 * id the placeholder gave (`<call id>@<message index>`), as a stored result to page.
 */
function clearedResult(id: string, state: RunState, maxChars: number): StoredResult | undefined {
  const at = id.lastIndexOf('@');
  const index = Number(id.slice(at + 1));
  if (at < 0 || !Number.isInteger(index) || index < 0) return undefined;
  const content = state.messages[index]?.content;
  if (!Array.isArray(content)) return undefined;
  const toolCallId = id.slice(0, at);
  const part = content.find(
    (p): p is ToolResultPart => p.type === 'tool_result' && p.toolCallId === toolCallId,
  );
  if (part === undefined) return undefined;
  return { id, toolName: '', content: part.content, maxChars, size: sizeOf(partsOf(part.content)) };
}

/** Checks `state.results` as read from storage: an array of stored results, or absent. */
export function checkStoredResults(value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    throw new AgentError(
      'INVALID_STATE',
      `state.results: expected an array or absent, received ${describe(value)}`,
    );
  }
  value.forEach((entry: Partial<StoredResult> | null, i) => {
    if (
      entry === null ||
      typeof entry !== 'object' ||
      typeof entry.id !== 'string' ||
      typeof entry.toolName !== 'string' ||
      (typeof entry.content !== 'string' && !Array.isArray(entry.content)) ||
      !(typeof entry.maxChars === 'number' && entry.maxChars >= 1) ||
      !(Number.isInteger(entry.size) && (entry.size as number) >= 0)
    ) {
      throw new AgentError(
        'INVALID_STATE',
        `state.results[${i}]: expected { id, toolName, content, maxChars, size }, received ${describe(entry)}`,
      );
    }
    const size = sizeOf(partsOf(entry.content as string | ContentPart[]));
    if (size !== entry.size) {
      throw new AgentError(
        'INVALID_STATE',
        `state.results[${i}].size: expected ${size} (the content's size), received ${describe(entry.size)}`,
      );
    }
  });
}

/** The chunk of `stored` starting at `offset`, followed by a notice. */
function page(stored: StoredResult, offset: number): string | ContentPart[] {
  const { parts, end } = chunk(partsOf(stored.content), offset, stored.maxChars);
  const rest = stored.size - end;
  const notice =
    rest > 0
      ? `[Result cut to fit the budget of ${stored.maxChars} characters: showing ${offset}–${end} of ${stored.size}, ${rest} more not shown. To read on, call ${READ_RESULT} with ${JSON.stringify({ id: stored.id, offset: end })}]`
      : `[End of result ${JSON.stringify(stored.id)}: showing ${offset}–${end} of ${stored.size}.]`;
  if (typeof stored.content === 'string') {
    return `${parts.map((p) => (p as { text: string }).text).join('')}\n\n${notice}`;
  }
  return [...parts, { type: 'text', text: `\n\n${notice}` }];
}

/**
 * The parts of `parts` that fall in `[offset, offset + budget)`: text is sliced (never
 * between the halves of a surrogate pair), other parts are whole or absent. A part too
 * large for the budget on its own is replaced by a short placeholder so paging goes on.
 */
function chunk(
  parts: ContentPart[],
  offset: number,
  budget: number,
): { parts: ContentPart[]; end: number } {
  const out: ContentPart[] = [];
  const limit = offset + budget;
  let pos = 0;
  for (const part of parts) {
    const size = partSize(part);
    const start = pos;
    pos += size;
    if (pos <= offset) continue;
    if (part.type === 'text') {
      const from = Math.max(offset, start) - start;
      let to = Math.min(limit, pos) - start;
      if (to < part.text.length && isHighSurrogate(part.text.charCodeAt(to - 1))) {
        to = to - 1 > from || out.length > 0 ? to - 1 : to + 1;
      }
      if (to > from) out.push({ type: 'text', text: part.text.slice(from, to) });
      if (start + to < pos) return { parts: out, end: start + to };
      continue;
    }
    if (start < offset) continue;
    if (pos <= limit) {
      out.push(part);
      continue;
    }
    if (start === offset) {
      const kind = 'mediaType' in part && part.mediaType ? part.mediaType : part.type;
      out.push({
        type: 'text',
        text: `[${kind} omitted: ${size} characters exceed the result budget of ${budget}]`,
      });
      return { parts: out, end: pos };
    }
    return { parts: out, end: start };
  }
  return { parts: out, end: pos };
}

function partsOf(content: string | ContentPart[]): ContentPart[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function sizeOf(parts: ContentPart[]): number {
  let size = 0;
  for (const part of parts) size += partSize(part);
  return size;
}

/** Text counts by characters, media and other parts by their base64 or JSON size. */
function partSize(part: ContentPart): number {
  switch (part?.type) {
    case 'text':
      return part.text.length;
    case 'image':
    case 'audio':
    case 'document':
      return part.data.length;
    case 'resource':
      return (part.text?.length ?? 0) + (part.data?.length ?? 0);
    default:
      return JSON.stringify(part)?.length ?? 0;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function freshId(toolCallId: string, results: StoredResult[]): string {
  let id = toolCallId;
  for (let n = 2; results.some((r) => r.id === id); n++) id = `${toolCallId}#${n}`;
  return id;
}
