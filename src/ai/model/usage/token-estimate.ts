/**
 * Token estimates of messages and requests, synchronous and cheap enough to run on every
 * message before every model request (docs/decisions/141). Text is counted with OpenAI's
 * `o200k_base` tokenizer; each provider family scales it and adds its own figures for
 * images, message framing and tool definitions.
 */
import { describeValue } from '../../../internal/describe-value.ts';
import type {
  ContentPart,
  GenerateRequest,
  Model,
  ModelMessage,
  ToolDefinition,
} from '../core/index.ts';
import { countTextTokens } from './text-tokens.ts';

/** How one provider family's token counts relate to `o200k_base` counts of the same text. */
interface Profile {
  /** Text tokens are the `o200k_base` count times this, rounded up. */
  textFactor: number;
  /** Tokens of one image of unknown size. */
  image: number;
  /** Framing tokens of each message (role and separators). */
  perMessage: number;
  /** Tokens of a request beyond its messages (the reply's priming). */
  perRequest: number;
  /** Tokens a request with tool definitions adds once (the provider's tool-use preamble). */
  toolsPreamble: number;
}

/**
 * The figures, and where they come from (docs/decisions/141): OpenAI's cookbook counts 3
 * tokens per message and 3 to prime the reply, and a 1024×1024 image at `detail: 'high'`
 * costs 85 + 4 × 170 = 765 tokens on GPT-4o-class models. Anthropic prices an image at
 * width × height / 750 tokens, about 1,600 at its 1.15-megapixel cap, and adds a 346-token
 * tool-use system prompt; its tokenizer is not public, so text is `o200k_base` × 1.3.
 * Gemini 3 takes 1,120 tokens per image at its default (high) media resolution, and its
 * text is `o200k_base` × 1.15. A model of no known family gets the largest figures.
 */
const PROFILES = {
  openai: { textFactor: 1, image: 765, perMessage: 3, perRequest: 3, toolsPreamble: 12 },
  /** GPT-4 and GPT-3.5 use `cl100k_base`, which takes a few percent more tokens than `o200k_base`. */
  openaiLegacy: { textFactor: 1.1, image: 765, perMessage: 3, perRequest: 3, toolsPreamble: 12 },
  anthropic: { textFactor: 1.3, image: 1600, perMessage: 4, perRequest: 3, toolsPreamble: 346 },
  gemini: { textFactor: 1.15, image: 1120, perMessage: 4, perRequest: 3, toolsPreamble: 12 },
  other: { textFactor: 1.3, image: 1600, perMessage: 4, perRequest: 3, toolsPreamble: 346 },
} as const satisfies Record<string, Profile>;

/** OpenAI's models on `cl100k_base`: `gpt-4`, `gpt-4-turbo`, `gpt-3.5-turbo` (not `gpt-4o`, `gpt-4.1`). */
const LEGACY_OPENAI = /^gpt-(3\.5|4)(-|$)/;

/** Framing tokens of a `tool_use` part beyond its id, name and arguments. */
const PER_TOOL_CALL = 8;
/** Framing tokens of a `tool_result` part beyond its id and content. */
const PER_TOOL_RESULT = 5;
/** Framing tokens of one tool definition beyond its JSON. */
const PER_TOOL_DEFINITION = 8;
/**
 * Audio and non-text documents are counted from their decoded size: one token per 32
 * bytes (Gemini takes 32 tokens a second of audio, which is 16 kbit/s compressed audio
 * counted twice over); a document at least one page's worth (1,500 tokens).
 */
const BYTES_PER_MEDIA_TOKEN = 32;
const MIN_DOCUMENT = 1500;
/** Opaque encrypted data (a redacted reasoning block) counts one token per 4 characters. */
const CHARS_PER_OPAQUE_TOKEN = 4;

/** A message's counts before any family's scaling: cached per message object. */
interface BaseCount {
  /** `o200k_base` tokens of its text (text, tool names, arguments, results, reasoning). */
  text: number;
  /** Images, priced by family. */
  images: number;
  /** Tokens that are the same for every family (framing of tool parts, media by size). */
  fixed: number;
}

/** Per message: the content counted and its length then, so a new or grown content is counted again. */
const messageCounts = new WeakMap<object, { content: unknown; length: number; count: BaseCount }>();
const toolCounts = new WeakMap<object, { tool: string; count: number }>();

/**
 * An estimate of the tokens one message takes in a model's input: its text counted with
 * OpenAI's `o200k_base` tokenizer (exact for OpenAI's current models), tool calls (name
 * and JSON arguments), tool results, images and other media by documented flat figures,
 * plus the message's framing. For Anthropic and Gemini models, whose tokenizers are not
 * public, text counts are scaled up (×1.3 and ×1.15); without a model, the largest
 * figures are used. Synchronous; the count is cached per message object: a new
 * `content`, or parts added to or removed from it, are counted again, but a part edited
 * in place is not noticed (replace the message instead). See docs/decisions/141.
 *
 * @example
 * ```ts
 * import { estimateMessageTokens } from 'fino:ai/model';
 *
 * const tokens = estimateMessageTokens({ role: 'user', content: 'What is the weather in Oslo?' }, 'openai:gpt-4o');
 * console.log(tokens); // 10: 7 for the text, 3 for the message's framing
 * ```
 */
export function estimateMessageTokens(message: ModelMessage, model?: Model | string): number {
  const profile = profileOf(model, 'estimateMessageTokens');
  return scaled(baseOf(message), profile) + profile.perMessage;
}

/**
 * An estimate of a request's input tokens: its messages (see {@link estimateMessageTokens}),
 * the system prompt, the tool definitions (their JSON) and the provider's tool-use
 * preamble, and the reply's priming. Synchronous; for the provider's own count use
 * `countTokens(model, request)`.
 *
 * @example
 * ```ts
 * import { estimateTokens } from 'fino:ai/model';
 *
 * const tokens = estimateTokens(
 *   {
 *     system: 'You answer in one sentence.',
 *     messages: [{ role: 'user', content: 'Why is the sky blue?' }],
 *   },
 *   'anthropic:claude-sonnet-4-5',
 * );
 * console.log(tokens > 10); // true
 * ```
 */
export function estimateTokens(
  request: Pick<GenerateRequest, 'messages' | 'system' | 'tools'>,
  model?: Model | string,
): number {
  if (typeof request !== 'object' || request === null || !Array.isArray(request.messages)) {
    throw new TypeError(
      `estimateTokens(request): expected { messages: ModelMessage[], system?, tools? }, received ${describeValue(request)}`,
    );
  }
  const profile = profileOf(model, 'estimateTokens');
  let total = profile.perRequest;
  for (const message of request.messages) {
    total += scaled(baseOf(message), profile) + profile.perMessage;
  }
  if (typeof request.system === 'string' && request.system !== '') {
    total += Math.ceil(countTextTokens(request.system) * profile.textFactor) + profile.perMessage;
  }
  if (Array.isArray(request.tools) && request.tools.length > 0) {
    let tools = 0;
    for (const tool of request.tools) tools += toolTokens(tool);
    total += Math.ceil(tools * profile.textFactor) + profile.toolsPreamble;
  }
  return total;
}

function scaled(count: BaseCount, profile: Profile): number {
  return Math.ceil(count.text * profile.textFactor) + count.images * profile.image + count.fixed;
}

/** The family whose figures apply: from a model's id or a name like `openai:gpt-4o` or `claude-…`. */
function profileOf(model: Model | string | undefined, caller: string): Profile {
  if (model === undefined) return PROFILES.other;
  const id = typeof model === 'string' ? model : model?.id;
  if (typeof id !== 'string') {
    throw new TypeError(
      `${caller}: model: expected a Model or a model name, received ${describeValue(model)}`,
    );
  }
  const colon = id.indexOf(':');
  const provider = colon < 0 ? '' : id.slice(0, colon);
  const name = colon < 0 ? id : id.slice(colon + 1);
  if (LEGACY_OPENAI.test(name) && (provider === '' || provider === 'openai')) {
    return PROFILES.openaiLegacy;
  }
  if (provider === 'openai' || provider === 'anthropic' || provider === 'gemini') {
    return PROFILES[provider];
  }
  if (/^(gpt-|o\d|chatgpt|codex)/.test(name)) return PROFILES.openai;
  if (name.startsWith('claude')) return PROFILES.anthropic;
  if (/^(models\/)?(gemini|gemma)/.test(name)) return PROFILES.gemini;
  return PROFILES.other;
}

function baseOf(message: ModelMessage): BaseCount {
  if (typeof message !== 'object' || message === null) {
    throw new TypeError(
      `estimateMessageTokens(message): expected a message { role, content }, received ${describeValue(message)}`,
    );
  }
  const { content } = message;
  const length = Array.isArray(content) ? content.length : -1;
  const cached = messageCounts.get(message);
  if (cached !== undefined && cached.content === content && cached.length === length) {
    return cached.count;
  }
  const count: BaseCount = { text: 0, images: 0, fixed: 0 };
  addContent(count, content);
  messageCounts.set(message, { content, length, count });
  return count;
}

/** Tool results nest content; deeper than this it is counted as its JSON text. */
const MAX_DEPTH = 8;

function addContent(count: BaseCount, content: unknown, depth = 0): void {
  if (typeof content === 'string') count.text += countTextTokens(content);
  else if (depth >= MAX_DEPTH) count.text += textOf(argsText(content));
  else if (Array.isArray(content)) for (const part of content) addPart(count, part, depth);
  else if (typeof content === 'object' && content !== null) {
    addPart(count, content as Record<string, unknown>, depth);
  }
}

function addPart(
  count: BaseCount,
  part: ContentPart | Record<string, unknown>,
  depth: number,
): void {
  if (typeof part === 'string') {
    count.text += countTextTokens(part);
    return;
  }
  if (typeof part !== 'object' || part === null) return;
  switch (part.type) {
    case 'text':
      count.text += textOf(part.text);
      return;
    case 'image':
      count.images += 1;
      return;
    case 'audio':
      count.fixed += Math.ceil(decodedBytes(part.data) / BYTES_PER_MEDIA_TOKEN);
      return;
    case 'document':
    case 'resource':
      addDocument(count, part as Record<string, unknown>);
      return;
    case 'tool_use':
      count.text += textOf(part.id) + textOf(part.name) + textOf(argsText(part.args));
      count.fixed += PER_TOOL_CALL;
      return;
    case 'tool_result':
      count.text += textOf(part.toolCallId);
      addContent(count, part.content, depth + 1);
      count.fixed += PER_TOOL_RESULT;
      return;
    case 'reasoning':
      count.text += textOf(part.text);
      if (typeof part.redacted === 'string') {
        count.fixed += Math.ceil(part.redacted.length / CHARS_PER_OPAQUE_TOKEN);
      }
      return;
    default:
      // A part of a type this version does not know: its JSON, so it is not free.
      count.text += textOf(argsText(part));
  }
}

/** A document or resource: its text counted, anything binary by size. */
function addDocument(count: BaseCount, part: Record<string, unknown>): void {
  if (typeof part.uri === 'string') count.text += textOf(part.uri);
  if (typeof part.text === 'string') count.text += countTextTokens(part.text);
  if (typeof part.data !== 'string') return;
  const media = typeof part.mediaType === 'string' ? part.mediaType : '';
  if (media.startsWith('text/') && part.data.length <= 4 * 1024 * 1024) {
    count.text += countTextTokens(Buffer.from(part.data, 'base64').toString('utf8'));
  } else if (media.startsWith('image/')) {
    count.images += 1;
  } else {
    count.fixed += Math.max(
      MIN_DOCUMENT,
      Math.ceil(decodedBytes(part.data) / BYTES_PER_MEDIA_TOKEN),
    );
  }
}

function textOf(value: unknown): number {
  return typeof value === 'string' ? countTextTokens(value) : 0;
}

/** Tool arguments as the model wrote them: JSON text (a string is the raw text). */
function argsText(args: unknown): string {
  if (typeof args === 'string') return args;
  try {
    return JSON.stringify(args) ?? '';
  } catch {
    // Circular or BigInt arguments cannot be sent either; count what they print as.
    return String(args);
  }
}

/** Bytes a base64 text decodes to, without decoding it. */
function decodedBytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** One tool definition's `o200k_base` tokens: its JSON plus framing, cached per definition. */
function toolTokens(tool: ToolDefinition): number {
  if (typeof tool !== 'object' || tool === null) return 0;
  const json = argsText({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
  });
  const cached = toolCounts.get(tool);
  if (cached !== undefined && cached.tool === json) return cached.count;
  const count = countTextTokens(json) + PER_TOOL_DEFINITION;
  toolCounts.set(tool, { tool: json, count });
  return count;
}
