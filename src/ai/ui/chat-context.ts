/**
 * What every route of a chat handler works with: the session, who is asking, the chat
 * (a session thread), and how a run's stream is sent and a run goes on in the background.
 */
import type { Actor, Session } from '../session/index.ts';
import { sessionUIChunks } from './session-chunks.ts';
import { type UIStreamLimits, uiMessageStreamResponse } from './sse.ts';
import type { StreamCounter } from './stream-counter.ts';

/** What a chat handler uses of a session (`session({ agent, events: true })`). */
export type ChatSession = Pick<
  Session,
  'start' | 'approve' | 'reject' | 'resume' | 'get' | 'cancel' | 'continue' | 'events' | 'thread'
>;

/** One request of one chat, authenticated and authorised. */
export interface ChatContext {
  session: ChatSession;
  /** Who asks, as the handler's `auth` hook named them: the `by` of their decisions. */
  actor: Actor;
  /** The chat's id: the session thread it lives in. */
  chatId: string;
  request: Request;
  /** Lets `work` (a run going on) finish after the response; its failure goes to `onError`. */
  background(runId: string, work: Promise<unknown>): void;
  /** The response streaming run `runId` as one UI message, from the events after `after`. */
  stream(runId: string, after: number): Response;
}

/** The parts of a {@link ChatContext} that are the same for every request of a handler. */
export interface ChatRuntime {
  session: ChatSession;
  /** The responses streaming now, and their limit. */
  streams: StreamCounter;
  streamLimits?: UIStreamLimits;
  pollMs?: number;
  onError: (error: unknown, runId: string) => void;
}

/** The context of one request. */
export function chatContext(
  runtime: ChatRuntime,
  request: Request,
  actor: Actor,
  chatId: string,
): ChatContext {
  const { session, onError } = runtime;
  return {
    session,
    actor,
    chatId,
    request,
    background(runId, work) {
      work.catch((error: unknown) => {
        try {
          onError(error, runId);
        } catch {
          // A failing error hook must not become an unhandled rejection that ends the process.
        }
      });
    },
    stream(runId, after) {
      const chunks = sessionUIChunks(session, runId, {
        after,
        threadId: chatId,
        signal: request.signal,
        ...(runtime.pollMs !== undefined && { pollMs: runtime.pollMs }),
      });
      return uiMessageStreamResponse(runtime.streams.counted(chunks), {
        signal: request.signal,
        ...(runtime.streamLimits && { limits: runtime.streamLimits }),
      });
    },
  };
}
