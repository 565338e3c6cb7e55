/**
 * `resumeStream()` of a page: the chat's unfinished run streamed again from its first
 * event, then live — from whichever process the request reaches (decision 256).
 */
import type { ChatContext } from './chat-context.ts';

/**
 * The stream of the run holding the chat's thread, replayed from the start
 * (`DefaultChatTransport` resets the message on a replay); 204 when no run is unfinished.
 * A run no worker drives — decided but not continued, or its worker's lease expired —
 * is continued by this process meanwhile.
 */
export async function resumeTurn(context: ChatContext): Promise<Response> {
  const page = await context.session.thread(context.chatId, { limit: 1 });
  const runId = page?.activeRunId;
  const run = runId === undefined ? undefined : await context.session.get(runId);
  if (!run) return new Response(null, { status: 204 });
  const orphaned =
    run.status === 'ready' ||
    (run.status === 'running' && Date.parse(run.leaseExpiresAt) <= Date.now());
  if (orphaned) context.background(run.runId, context.session.continue(run.runId));
  return context.stream(run.runId, 0);
}
