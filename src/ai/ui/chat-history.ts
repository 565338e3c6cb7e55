/**
 * A chat's messages for a page that reloads: the thread as UI messages, with the user
 * input of its unfinished run, whose answer the page gets by resuming the stream.
 */
import type { ThreadMessage, ThreadPage } from '../session/index.ts';
import { withApprovals } from './chat-approvals.ts';
import type { ChatContext } from './chat-context.ts';
import { threadUIMessages } from './thread-ui-messages.ts';
import type { UIMessage } from './types.ts';
import { UIRequestError } from './ui-request-error.ts';

/** The most messages one `GET …/messages` returns (the newest ones): the session's page limit. */
export const MAX_HISTORY_MESSAGES = 1000;

/**
 * The newest `limit` messages of the chat (query `?limit=`, default 100) as `UIMessage[]`
 * JSON; `[]` for a chat with no thread yet. The unfinished run's input comes last, with
 * the ids its messages get in the thread when the run finishes; approvals show as the
 * live page showed them (`withApprovals`).
 */
export async function chatHistory(context: ChatContext): Promise<Response> {
  const limit = limitOf(new URL(context.request.url).searchParams.get('limit'));
  const page = await context.session.thread(context.chatId, { limit });
  const messages = page ? await withApprovals(context, await withActiveInput(context, page)) : [];
  return Response.json(messages, { headers: { 'cache-control': 'no-store' } });
}

async function withActiveInput(context: ChatContext, page: ThreadPage): Promise<UIMessage[]> {
  const run =
    page.activeRunId === undefined ? undefined : await context.session.get(page.activeRunId);
  if (!run) return threadUIMessages(page);
  const input =
    typeof run.input === 'string' ? [{ role: 'user' as const, content: run.input }] : run.input;
  const pending: ThreadMessage[] = input.map((message, index) => ({
    position: page.length + index,
    runId: run.runId,
    tokens: 0,
    message,
  }));
  return threadUIMessages({ ...page, messages: [...page.messages, ...pending] });
}

function limitOf(text: string | null): number {
  if (text === null) return 100;
  const limit = Number(text);
  if (/^\d+$/.test(text) && limit >= 1 && limit <= MAX_HISTORY_MESSAGES) return limit;
  throw new UIRequestError(
    'INVALID_REQUEST',
    `Expected the query's limit to be an integer from 1 to ${MAX_HISTORY_MESSAGES}, received ${JSON.stringify(text.slice(0, 100))}.`,
  );
}
