/**
 * Posted UI messages checked as hostile input (decision 248): their count, roles, ids and
 * parts, against {@link ChatRequestLimits}. What comes back is a checked copy, safe to
 * keep: plain JSON, nothing of the input's prototypes, getters or extra nesting.
 */
import { describeValue } from '../../internal/describe-value.ts';
import {
  type ChatRequestLimits,
  type ResolvedLimits,
  resolveLimits,
} from './chat-request-limits.ts';
import { checkedJson, isObject, plainEntries } from './json-value.ts';
import type { UIMessage, UIMessagePart } from './types.ts';
import { id, oneOf } from './ui-fields.ts';
import { checkPart } from './ui-part-check.ts';
import { invalidMessages, UIRequestError } from './ui-request-error.ts';

/** What the whole check counts across messages. */
interface Tally {
  parts: number;
  messageIds: Set<string>;
  toolCallIds: Set<string>;
}

/**
 * Checks that `value` is a list of UI messages as `useChat` posts them, within `limits`,
 * and returns a checked copy. Refused (a {@link UIRequestError} 400 `INVALID_MESSAGES`
 * whose message names the path, e.g. `messages[3].parts[2].state`, and what was expected):
 * too many messages or parts, a role other than `user` or `assistant` (`system` only with
 * `limits.systemMessages`), a repeated message id or tool call id, an id that is empty,
 * too long or holds a control character, a part type the protocol does not define, a tool
 * part whose state lacks the fields it needs or has another state's, a JSON value nested
 * too deep, a non-plain object, a `__proto__` key.
 *
 * @example
 * ```ts
 * import { checkUIMessages } from 'fino:ai/ui';
 *
 * const messages = checkUIMessages([
 *   { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Where is my order?' }] },
 * ]);
 * console.log(messages[0].parts[0]); // { type: 'text', text: 'Where is my order?' }
 * ```
 */
export function checkUIMessages(value: unknown, limits?: ChatRequestLimits): UIMessage[] {
  const resolved = resolveLimits(limits);
  try {
    return checkList(value, resolved);
  } catch (error) {
    if (error instanceof UIRequestError) throw error;
    // A Proxy whose traps throw, or a value that cannot be read: refused like any other.
    throw invalidMessages('messages', 'plain JSON messages', 'a value that cannot be read');
  }
}

function checkList(value: unknown, limits: ResolvedLimits): UIMessage[] {
  if (!Array.isArray(value)) {
    throw invalidMessages('messages', 'an array of UI messages', describeValue(value));
  }
  if (value.length > limits.messages) {
    throw invalidMessages(
      'messages',
      `at most ${limits.messages} messages`,
      `${value.length} messages`,
    );
  }
  const tally: Tally = { parts: 0, messageIds: new Set(), toolCallIds: new Set() };
  return value.map((message, i) => checkMessage(message, `messages[${i}]`, limits, tally));
}

/** One message: its id (unique), role, metadata and parts. */
function checkMessage(
  value: unknown,
  path: string,
  limits: ResolvedLimits,
  tally: Tally,
): UIMessage {
  if (!isObject(value)) throw invalidMessages(path, 'a message object', describeValue(value));
  const fields = new Map(plainEntries(value, path));
  const messageId = id(fields.get('id'), `${path}.id`, limits) as string;
  if (tally.messageIds.has(messageId)) {
    throw invalidMessages(
      `${path}.id`,
      'an id no other message has',
      `the repeated id "${messageId}"`,
    );
  }
  tally.messageIds.add(messageId);
  const roles = limits.systemMessages ? ['system', 'user', 'assistant'] : ['user', 'assistant'];
  const role = oneOf(roles)(fields.get('role'), `${path}.role`, limits) as UIMessage['role'];
  const parts = fields.get('parts');
  if (!Array.isArray(parts)) {
    throw invalidMessages(`${path}.parts`, 'an array of parts', describeValue(parts));
  }
  checkPartCounts(parts.length, path, limits, tally);
  const message: UIMessage = {
    id: messageId,
    role,
    parts: parts.map((part, j) => checkPartOnce(part, `${path}.parts[${j}]`, role, limits, tally)),
  };
  for (const [name, field] of fields) {
    if (field === undefined || name === 'id' || name === 'role' || name === 'parts') continue;
    (message as unknown as Record<string, unknown>)[name] = checkedJson(
      field,
      `${path}.${name}`,
      limits.depth,
    );
  }
  return message;
}

function checkPartCounts(count: number, path: string, limits: ResolvedLimits, tally: Tally) {
  if (count > limits.partsPerMessage) {
    throw invalidMessages(
      `${path}.parts`,
      `at most ${limits.partsPerMessage} parts in a message`,
      `${count} parts`,
    );
  }
  tally.parts += count;
  if (tally.parts > limits.parts) {
    throw invalidMessages(
      `${path}.parts`,
      `at most ${limits.parts} parts in all the messages`,
      `${tally.parts} parts so far`,
    );
  }
}

/** A part, with its tool call id (when it has one) unique across the messages. */
function checkPartOnce(
  value: unknown,
  path: string,
  role: UIMessage['role'],
  limits: ResolvedLimits,
  tally: Tally,
): UIMessagePart {
  const part = checkPart(value, path, role, limits);
  if ('toolCallId' in part) {
    if (tally.toolCallIds.has(part.toolCallId)) {
      throw invalidMessages(
        `${path}.toolCallId`,
        'a tool call id no other tool part has',
        `the repeated id "${part.toolCallId}"`,
      );
    }
    tally.toolCallIds.add(part.toolCallId);
  }
  return part;
}
