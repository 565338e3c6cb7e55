/**
 * A new message of the page: a new session run on the chat's thread, streamed back while
 * it runs. The run is the server's, not the request's: it goes on when the page leaves.
 */
import { sortableId } from '../../internal/sortable-id.ts';
import { SessionError } from '../session/index.ts';
import type { ChatContext } from './chat-context.ts';
import type { UIMessage } from './types.ts';
import { UIRequestError } from './ui-request-error.ts';
import { toModelMessages } from './ui-to-model.ts';

/**
 * Starts a run of the chat's thread with `message` (a user message) as its input and
 * streams it. A failed run left holding the thread is cancelled first (a chat moves on
 * from a failed turn, as the AI SDK's does); a running or waiting one is `THREAD_BUSY`,
 * as is the run of another tab's message that superseded the failed one first.
 */
export async function startTurn(context: ChatContext, message: UIMessage): Promise<Response> {
  const input = toModelMessages([message]);
  if (input.length === 0 || input.every((turn) => turn.content.length === 0)) {
    throw new UIRequestError(
      'INVALID_MESSAGES',
      'Expected the last message to hold text or a file for the agent, received none.',
    );
  }
  const runId = sortableId('run_');
  try {
    await startStored(context, runId, input);
  } catch (error) {
    if (!isThreadBusy(error)) throw error;
    if (!(await supersedeFailedRun(context))) throw await busyRefusal(context);
    await startStored(context, runId, input).catch(async (again: unknown) => {
      throw isThreadBusy(again) ? await busyRefusal(context) : again;
    });
  }
  return context.stream(runId, 0);
}

/** Starts the run and waits until it is stored: its events can be read from then on. */
async function startStored(
  context: ChatContext,
  runId: string,
  input: ReturnType<typeof toModelMessages>,
): Promise<void> {
  const { promise: stored, resolve } = withResolvers();
  const run = context.session.start(input, {
    runId,
    threadId: context.chatId,
    onStored: resolve,
  });
  // Refused before it was stored (a busy thread): the error is this request's answer.
  await Promise.race([stored, run]);
  context.background(runId, run);
}

const isThreadBusy = (error: unknown) =>
  error instanceof SessionError && error.code === 'THREAD_BUSY';

/** Cancels the failed run holding the thread: whether one was (by this tab or another). */
async function supersedeFailedRun(context: ChatContext): Promise<boolean> {
  const active = await activeRun(context);
  if (active?.status !== 'error') return false;
  try {
    await context.session.cancel(active.runId, {
      ...context.actor,
      note: 'a new message of the chat superseded this failed run',
    });
  } catch (error) {
    // Another tab's message superseded it first: the start that follows tells who holds the thread.
    if (!(error instanceof SessionError) || error.code !== 'NOT_PENDING') throw error;
  }
  return true;
}

/** The page's 409: what the chat waits for, or that it is answering another message. */
async function busyRefusal(context: ChatContext): Promise<UIRequestError> {
  const active = await activeRun(context);
  if (active?.status === 'suspended') {
    const calls = active.pending.map((call) => `${call.toolName} (${call.toolCallId})`);
    return new UIRequestError(
      'THREAD_BUSY',
      `Chat "${context.chatId}" waits for an answer on ${calls.join(', ')} in run "${active.runId}": approve or deny it (or add its output) before sending a new message.`,
    );
  }
  const running = active?.status === 'running' ? ` (run "${active.runId}")` : '';
  return new UIRequestError(
    'THREAD_BUSY',
    `Chat "${context.chatId}" is answering another message${running}: wait for that answer to finish before sending a new message.`,
  );
}

async function activeRun(context: ChatContext) {
  const page = await context.session.thread(context.chatId, { limit: 1 });
  return page?.activeRunId === undefined ? undefined : context.session.get(page.activeRunId);
}

function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
