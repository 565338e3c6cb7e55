/**
 * The content of sampling messages, both ways: a message's content is one part or — since
 * MCP 2025-11-25 — an array of parts, each text, an image or audio (base64 with its media
 * type). fino writes them as its own content parts (`{ type: 'image', mediaType, data }`),
 * MCP as content blocks (`{ type: 'image', mimeType, data }`). Both directions check the
 * parts and bound how many one request may carry (decision 216).
 */
import type { SamplingMessage } from '@modelcontextprotocol/server';
import { describeValue } from '../../../internal/describe-value.ts';
import type { ContentPart } from '../../../task/index.ts';
import { fromMcpContent, toMcpContent } from './content.ts';

/** The most content parts one sampling request may carry, over all its messages. */
export const MAX_SAMPLING_PARTS = 1000;

/** The part types a sampling message may hold (tool use needs tools fino does not send). */
const SAMPLING_TYPES = new Set(['text', 'image', 'audio']);

const EXPECTED =
  "a text, image or audio part ({ type: 'text', text } | { type: 'image' | 'audio', mediaType, data })";

/** What a message's content may be: text, one part, or a non-empty array of parts. */
export type SamplingContentInput = string | ContentPart | readonly ContentPart[];

/** Counts a request's content parts against {@link MAX_SAMPLING_PARTS}. */
export class PartBudget {
  #left = MAX_SAMPLING_PARTS;
  readonly #who: string;

  /** `who` names the caller in the error (`ctx.sample`, `mcpClient`). */
  constructor(who: string) {
    this.#who = who;
  }

  take(count: number): void {
    this.#left -= count;
    if (this.#left < 0) {
      throw new TypeError(
        `${this.#who}: a sampling request may carry at most ${MAX_SAMPLING_PARTS} content parts over all its messages`,
      );
    }
  }
}

/**
 * A fino message content as MCP sampling content — one block, or an array for an array;
 * a `TypeError` names the first bad part (`ctx.sample: messages[0].content[2]: …`).
 */
export function toSamplingContent(
  content: SamplingContentInput,
  where: string,
  budget: PartBudget,
): SamplingMessage['content'] {
  if (typeof content === 'string') content = { type: 'text', text: content };
  if (!Array.isArray(content)) {
    budget.take(1);
    return toMcpContent(checkedPart(content, where)) as SamplingMessage['content'];
  }
  if (content.length === 0) {
    throw new TypeError(
      `${where}: expected a string, a part or a non-empty array of parts, received an empty array`,
    );
  }
  budget.take(content.length);
  return content.map((part, index) =>
    toMcpContent(checkedPart(part, `${where}[${index}]`)),
  ) as SamplingMessage['content'];
}

/**
 * MCP sampling content (one block or an array) as fino parts; a `TypeError` names a
 * block that is not text, an image or audio (tool use, tool results, unknown types).
 */
export function fromSamplingContent(
  content: SamplingMessage['content'],
  where: string,
  budget: PartBudget,
): ContentPart[] {
  const blocks: unknown[] = Array.isArray(content) ? content : [content];
  budget.take(blocks.length);
  return blocks.map((block, index) => {
    const at = Array.isArray(content) ? `${where}[${index}]` : where;
    const type = (block as { type?: unknown } | null)?.type;
    if (typeof type !== 'string' || !SAMPLING_TYPES.has(type)) {
      throw new TypeError(
        `${at}: expected ${EXPECTED.replace('mediaType', 'mimeType')}, received ${describeValue(block)}`,
      );
    }
    return fromMcpContent(block as never);
  });
}

/** `part` when it is a well-formed text, image or audio part. */
function checkedPart(part: unknown, where: string): ContentPart {
  const candidate = part as Record<string, unknown> | null;
  const ok =
    candidate?.type === 'text'
      ? typeof candidate.text === 'string'
      : (candidate?.type === 'image' || candidate?.type === 'audio') &&
        typeof candidate.mediaType === 'string' &&
        typeof candidate.data === 'string';
  if (!ok) throw new TypeError(`${where}: expected ${EXPECTED}, received ${describeValue(part)}`);
  return part as ContentPart;
}
