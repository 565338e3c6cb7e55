/**
 * How much a chat request may hold (decision 248): every limit the reading and checking
 * of posted messages applies, with its default.
 */
import { unknownKeyMessage } from '../../internal/known-keys.ts';

/**
 * The limits of {@link readChatRequest} and {@link checkUIMessages}; each one left out
 * takes its default. A request over one is refused: 413 for `bytes`, 400 for the others.
 */
export interface ChatRequestLimits {
  /** The body's size in bytes, counted while it is read. Default 1 MiB (1 048 576). */
  bytes?: number;
  /** Messages in a request. Default 1 000. */
  messages?: number;
  /** Parts in one message. Default 100. */
  partsPerMessage?: number;
  /** Parts in all the messages together. Default 10 000. */
  parts?: number;
  /** Characters of a message, tool call, approval, source or data part id. Default 256. */
  idLength?: number;
  /** Characters of one text or reasoning part. Default 262 144 (256 Ki). */
  textLength?: number;
  /** Nesting depth of a JSON value a part or the body carries (tool input, data, metadata). Default 64. */
  depth?: number;
  /**
   * Accept `system` messages from the page. Default `false`: a browser must not write the
   * agent's instructions, so a posted system message is refused.
   */
  systemMessages?: boolean;
}

/** {@link ChatRequestLimits} with every default filled in. */
export type ResolvedLimits = Required<ChatRequestLimits>;

/** The defaults of {@link ChatRequestLimits}. */
export const DEFAULT_CHAT_REQUEST_LIMITS: Readonly<ResolvedLimits> = Object.freeze({
  bytes: 1024 * 1024,
  messages: 1_000,
  partsPerMessage: 100,
  parts: 10_000,
  idLength: 256,
  textLength: 256 * 1024,
  depth: 64,
  systemMessages: false,
});

const NUMERIC = [
  'bytes',
  'messages',
  'partsPerMessage',
  'parts',
  'idLength',
  'textLength',
  'depth',
];

/**
 * The limits with their defaults; an unknown key, or a limit that is not a positive
 * integer (a boolean for `systemMessages`), is a `TypeError` (the server's mistake, not
 * the page's).
 */
export function resolveLimits(limits: ChatRequestLimits | undefined): ResolvedLimits {
  const resolved = { ...DEFAULT_CHAT_REQUEST_LIMITS };
  const unknown = unknownKeyMessage('ChatRequestLimits', limits ?? {}, Object.keys(resolved));
  if (unknown !== undefined) throw new TypeError(unknown);
  for (const [name, value] of Object.entries(limits ?? {})) {
    if (value === undefined) continue;
    const numeric = NUMERIC.includes(name);
    const valid = numeric ? Number.isSafeInteger(value) && value > 0 : typeof value === 'boolean';
    if (!valid) {
      throw new TypeError(
        `ChatRequestLimits.${name}: expected ${numeric ? 'a positive integer' : 'a boolean'}, received ${String(value)}`,
      );
    }
    (resolved as Record<string, unknown>)[name] = value;
  }
  return resolved;
}
