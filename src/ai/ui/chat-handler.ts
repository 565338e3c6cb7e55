/**
 * A chat front end's whole server side over a fino session (decision 256): what
 * `useChat` with `DefaultChatTransport` posts and resumes, as one Web-standard handler.
 */

import type { Actor } from '../session/index.ts';
import { SessionError } from '../session/index.ts';
import { answerTurn } from './chat-answers.ts';
import {
  type ChatContext,
  type ChatRuntime,
  type ChatSession,
  chatContext,
} from './chat-context.ts';
import { chatHistory } from './chat-history.ts';
import { type ChatRequestLimits, resolveLimits } from './chat-request-limits.ts';
import { resumeTurn } from './chat-resume.ts';
import { chatRoute } from './chat-route.ts';
import { startTurn } from './chat-turn.ts';
import { readChatRequest } from './read-chat-request.ts';
import type { UIStreamLimits } from './sse.ts';
import { DEFAULT_MAX_STREAMS, streamCounter } from './stream-counter.ts';
import { UIRequestError } from './ui-request-error.ts';

/** Options of {@link chatHandler}. */
export interface ChatHandlerOptions {
  /** The session the chats live in, with an agent and `events: true`. */
  session: ChatSession;
  /**
   * Who is asking: their `by` is what the audit trail records for the approvals they
   * give (the page's word is never taken for it). `undefined` → 401. Default: anyone, anonymous.
   */
  auth?: (request: Request) => Actor | undefined | Promise<Actor | undefined>;
  /** May this actor use this chat (thread)? `false` → 403. Default: yes. */
  authorize?: (actor: Actor, chatId: string, request: Request) => boolean | Promise<boolean>;
  /** Where the routes live (default `/api/chat`): `POST base`, `GET base/:id/stream`, `GET base/:id/messages`. */
  basePath?: string;
  /** The limits of a posted chat request (see `readChatRequest`). */
  limits?: ChatRequestLimits;
  /** The limits of a streamed response (see `uiMessageStreamResponse`). */
  streamLimits?: UIStreamLimits;
  /** How often a stream asks the store for a run's new events (see `Session.events`; 10 to 60 000 ms). */
  pollMs?: number;
  /**
   * The most responses this handler streams at once (default 1000): each follows a run's
   * events. Past it a POST or a resume is refused with 503 `TOO_MANY_STREAMS` (and
   * `retry-after`) before anything starts.
   */
  maxStreams?: number;
  /** A run that failed in the background (its store down, …), default `console.error`. */
  onError?: (error: unknown, runId: string) => void;
}

/** A chat handler: one `fetch` for every route (export it as `POST` and `GET` in Next.js). */
export interface ChatHandler {
  fetch(request: Request): Promise<Response>;
}

/**
 * The server side of a chat page over a session: `POST` a new user message starts a run
 * on the chat's thread (the chat id is the thread id) and streams it; `POST` the
 * assistant message with approval responses or tool outputs decides the calls its run
 * waits for and streams the rest of that message; `GET /:id/stream` replays the chat's
 * unfinished run and follows it (a reload, another process); `GET /:id/messages` is the
 * thread as `UIMessage[]`. Refusals are JSON `{ error: { code, message } }` (see
 * `UIRequestError`). Runs go on when the page leaves: they belong to the session.
 *
 * @example
 * ```ts
 * import { agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { memoryStore, session } from 'fino:ai/session';
 * import { chatHandler } from 'fino:ai/ui';
 *
 * const runs = session({
 *   store: memoryStore(),
 *   agent: agent({ model: scriptedModel(['Hello!']) }),
 *   events: true,
 * });
 * const chat = chatHandler({ session: runs, auth: () => ({ by: 'alice' }) });
 * const response = await chat.fetch(
 *   new Request('http://localhost/api/chat', {
 *     method: 'POST',
 *     headers: { 'content-type': 'application/json' },
 *     body: JSON.stringify({
 *       id: 'chat-1',
 *       message: { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
 *     }),
 *   }),
 * );
 * console.log((await response.text()).includes('"delta":"Hello!"')); // true
 * ```
 */
export function chatHandler(options: ChatHandlerOptions): ChatHandler {
  const basePath = checkedBasePath(options.basePath ?? '/api/chat');
  const limits = resolveLimits(options.limits);
  const runtime = chatRuntime(options);
  return {
    async fetch(request) {
      try {
        const route = chatRoute(request, basePath, limits);
        const actor = await authenticate(options, request);
        if (route.kind === 'messages') {
          return await chatHistory(await allowed(runtime, options, request, actor, route.chatId));
        }
        runtime.streams.checkRoom();
        if (route.kind === 'stream') {
          return await resumeTurn(await allowed(runtime, options, request, actor, route.chatId));
        }
        const chat = await readChatRequest(request, limits);
        if (chat.trigger === 'regenerate-message') {
          throw new UIRequestError(
            'INVALID_REQUEST',
            'Expected a new message: regenerating an answer is not supported for a chat that lives in a session thread (fork the thread before the answer instead).',
          );
        }
        const context = await allowed(runtime, options, request, actor, chat.id);
        const message = chat.messages[chat.messages.length - 1];
        return message.role === 'assistant'
          ? await answerTurn(context, message)
          : await startTurn(context, message);
      } catch (error) {
        return refusal(error);
      }
    },
  };
}

/** What every request of the handler shares, its options checked. */
function chatRuntime(options: ChatHandlerOptions): ChatRuntime {
  const { pollMs } = options;
  if (pollMs !== undefined && !(Number.isInteger(pollMs) && pollMs >= 10 && pollMs <= 60_000)) {
    throw new RangeError(
      `chatHandler: pollMs: expected an integer from 10 to 60000 (milliseconds), received ${String(pollMs)}`,
    );
  }
  return {
    session: options.session,
    onError: options.onError ?? reportRunError,
    streams: streamCounter(options.maxStreams ?? DEFAULT_MAX_STREAMS),
    ...(options.streamLimits && { streamLimits: options.streamLimits }),
    ...(pollMs !== undefined && { pollMs }),
  };
}

/** Who asks: 401 when the `auth` hook recognises no one (before the body is read). */
async function authenticate(options: ChatHandlerOptions, request: Request): Promise<Actor> {
  const actor = options.auth ? await options.auth(request) : {};
  if (actor) return actor;
  throw new UIRequestError(
    'UNAUTHENTICATED',
    'Expected credentials this server accepts; the request carries none it recognises.',
  );
}

/** The request's context once `authorize` allows the actor this chat: 403 otherwise. */
async function allowed(
  runtime: ChatRuntime,
  options: ChatHandlerOptions,
  request: Request,
  actor: Actor,
  chatId: string,
): Promise<ChatContext> {
  if (options.authorize && !(await options.authorize(actor, chatId, request))) {
    throw new UIRequestError('FORBIDDEN', `This caller may not use chat "${chatId}".`);
  }
  return chatContext(runtime, request, actor, chatId);
}

/** An error as the answer to send: a chat refusal, a session's, or thrown on (a 500). */
function refusal(error: unknown): Response {
  if (error instanceof UIRequestError) return error.toResponse();
  if (!(error instanceof SessionError)) throw error;
  switch (error.code) {
    case 'ALREADY_DECIDED':
    case 'NOT_PENDING':
      return new UIRequestError(
        'ALREADY_DECIDED',
        `${error.message}: reload the chat to see what was decided.`,
      ).toResponse();
    case 'THREAD_BUSY':
      return new UIRequestError('THREAD_BUSY', error.message).toResponse();
    case 'INVALID_ARGUMENT':
      return new UIRequestError('INVALID_REQUEST', error.message).toResponse();
    case 'STORE_UNAVAILABLE':
      return Response.json(
        { error: { code: error.code, message: `${error.message}: try again shortly.` } },
        { status: 503, headers: { 'retry-after': '1', 'cache-control': 'no-store' } },
      );
    default:
      throw error;
  }
}

function reportRunError(error: unknown, runId: string): void {
  console.error(`fino chatHandler: run ${runId} failed in the background:`, error);
}

function checkedBasePath(path: string): string {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError(
      `chatHandler: basePath: expected a path starting with "/", received ${JSON.stringify(path)}`,
    );
  }
  return path.replace(/\/+$/, '');
}
