/**
 * The POST of a chat front end, read as hostile input (decision 248): what `ai`'s
 * `DefaultChatTransport` sends (`{ id, messages, trigger, messageId, …body }`), or the
 * one-message form `{ id, message }` of an app whose conversation lives on the server.
 * The body is read with a byte limit counted as it arrives, so an oversized one is
 * refused without being held in memory.
 */
import { readBoundedBody } from '../../internal/bounded-body.ts';
import { describeValue } from '../../internal/describe-value.ts';
import {
  type ChatRequestLimits,
  type ResolvedLimits,
  resolveLimits,
} from './chat-request-limits.ts';
import { checkedJson, isObject, plainEntries } from './json-value.ts';
import type { UIMessage } from './types.ts';
import { id, oneOf } from './ui-fields.ts';
import { checkUIMessages } from './ui-message-check.ts';
import { UIRequestError } from './ui-request-error.ts';

/** A chat request, read and checked. */
export interface ChatRequest {
  /** The chat's id (`useChat`'s `id`; a session thread's id when the conversation lives there). */
  id: string;
  /** The posted messages: the whole conversation, or the one new message of the one-message form. */
  messages: UIMessage[];
  /** Why the page sent it: a new message, or a request to answer the last one again. */
  trigger: 'submit-message' | 'regenerate-message';
  /** The message to regenerate (with `regenerate-message`). */
  messageId?: string;
  /** The request's other fields (the transport's `body` option), as checked JSON. */
  body: Record<string, unknown>;
}

const CHAT_FIELDS = new Set(['id', 'messages', 'message', 'trigger', 'messageId']);

/**
 * Reads and checks the POST of a chat page. Refused with a {@link UIRequestError}:
 * 415 `UNSUPPORTED_MEDIA_TYPE` unless the body is `application/json`; 413 `TOO_LARGE`
 * as soon as the body passes `limits.bytes` (1 MiB by default); 400 `INVALID_JSON` for a
 * body that is not UTF-8 JSON, `INVALID_REQUEST` for a wrong `id`, `trigger` or
 * `messageId`, or both or neither of `messages` and `message`, and `INVALID_MESSAGES`
 * for what {@link checkUIMessages} refuses.
 *
 * @example
 * ```ts
 * import { readChatRequest, UIRequestError } from 'fino:ai/ui';
 *
 * async function POST(request: Request): Promise<Response> {
 *   try {
 *     const chat = await readChatRequest(request, { bytes: 256 * 1024 });
 *     return Response.json({ received: chat.messages.length });
 *   } catch (error) {
 *     if (error instanceof UIRequestError) return error.toResponse();
 *     throw error;
 *   }
 * }
 *
 * const message = { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] };
 * const response = await POST(
 *   new Request('http://localhost/api/chat', {
 *     method: 'POST',
 *     headers: { 'content-type': 'application/json' },
 *     body: JSON.stringify({ id: 'chat-1', messages: [message], trigger: 'submit-message' }),
 *   }),
 * );
 * console.log(await response.json()); // { received: 1 }
 * ```
 */
export async function readChatRequest(
  request: Request,
  limits?: ChatRequestLimits,
): Promise<ChatRequest> {
  const resolved = resolveLimits(limits);
  checkContentType(request.headers.get('content-type'));
  const text = await readBody(request, resolved.bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unreadable';
    throw new UIRequestError(
      'INVALID_JSON',
      `Expected a JSON body, received text JSON cannot parse (${reason}).`,
    );
  }
  return chatRequestOf(value, resolved);
}

function checkContentType(type: string | null): void {
  const mediaType = (type ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType === 'application/json') return;
  throw new UIRequestError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Expected a JSON body (content-type: application/json), received ${type === null || type === '' ? 'no content type' : `content-type ${JSON.stringify(type.slice(0, 100))}`}.`,
  );
}

/** The body as UTF-8 text, read up to `limit` bytes: past it, reading stops and 413. */
async function readBody(request: Request, limit: number): Promise<string> {
  const body = await readBoundedBody(
    request,
    limit,
    () =>
      new UIRequestError(
        'TOO_LARGE',
        `Expected a body of at most ${limit} bytes; this one is larger.`,
      ),
  );
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new UIRequestError(
      'INVALID_JSON',
      'Expected a JSON body in UTF-8, received bytes that are not UTF-8.',
    );
  }
}

/** The parsed body as a chat request: its fields checked, the other ones kept as `body`. */
function chatRequestOf(value: unknown, limits: ResolvedLimits): ChatRequest {
  if (!isObject(value)) {
    throw new UIRequestError(
      'INVALID_REQUEST',
      `Expected a JSON object with id and messages, received ${describeValue(value)}.`,
    );
  }
  const fields = new Map(plainEntries(value, 'body'));
  const field = <T>(name: string, check: (value: unknown, path: string) => unknown) =>
    asRequestError(() => check(fields.get(name), name)) as T;
  const chatId = field<string>('id', (v, path) => id(v, path, limits));
  const trigger = fields.has('trigger')
    ? field<ChatRequest['trigger']>('trigger', (v, path) =>
        oneOf(['submit-message', 'regenerate-message'])(v, path, limits),
      )
    : 'submit-message';
  const request: ChatRequest = {
    id: chatId,
    messages: messagesOf(fields, limits),
    trigger,
    body: {},
  };
  if (fields.get('messageId') !== undefined) {
    request.messageId = field<string>('messageId', (v, path) => id(v, path, limits));
  }
  for (const [name, extra] of fields) {
    if (CHAT_FIELDS.has(name) || extra === undefined) continue;
    request.body[name] = asRequestError(() => checkedJson(extra, name, limits.depth));
  }
  return request;
}

/** `messages`, or the one-message form's `message` as a list of one. */
function messagesOf(fields: Map<string, unknown>, limits: ResolvedLimits): UIMessage[] {
  const list = fields.get('messages');
  const one = fields.get('message');
  if ((list === undefined) === (one === undefined)) {
    throw new UIRequestError(
      'INVALID_REQUEST',
      `Expected either "messages" (the conversation) or "message" (its newest message), received ${list === undefined ? 'neither' : 'both'}.`,
    );
  }
  if (list !== undefined) return checkUIMessages(list, limits);
  try {
    return checkUIMessages([one], limits);
  } catch (error) {
    // Named as the page sent it: `message.parts[2]`, not `messages[0].parts[2]`.
    if (!(error instanceof UIRequestError)) throw error;
    throw new UIRequestError(error.code, error.message.replace(/^messages\[0\]/, 'message'));
  }
}

/** A field's check, its 400 sent as `INVALID_REQUEST` (the request is wrong, not its messages). */
function asRequestError(check: () => unknown): unknown {
  try {
    return check();
  } catch (error) {
    if (error instanceof UIRequestError) throw new UIRequestError('INVALID_REQUEST', error.message);
    throw error;
  }
}
