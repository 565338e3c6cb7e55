import { SessionError } from './errors.ts';
import type { Session } from './session.ts';
import type { SessionRun, ThreadPage } from './types.ts';

/** A run's thread as a page about the run shows it: its newest messages, or why they could not be read. */
export type RunThread = ThreadPage | { threadId: string; error: string };

/**
 * The newest `limit` messages of the thread `run` belongs to, for a page or a listing
 * about the run: `undefined` when the run has no thread, and `{ threadId, error }` when
 * the store refuses to read it (a `SessionError`), so the rest of the run still shows.
 * Any other error is thrown.
 *
 * @example
 * ```ts
 * import { agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { memoryStore, runThread, session } from 'fino:ai/session';
 *
 * const runs = session({ store: memoryStore(), agent: agent({ model: scriptedModel(['Hi.']) }) });
 * const run = await runs.start('Hello.', { threadId: 'customer-9' });
 * const thread = await runThread(runs, run, { limit: 10 });
 * console.log(thread && 'messages' in thread ? thread.messages.length : thread); // 2
 * ```
 */
export async function runThread(
  runs: Pick<Session, 'thread'>,
  run: Pick<SessionRun, 'threadId'>,
  options: { limit: number },
): Promise<RunThread | undefined> {
  if (run.threadId === undefined) return undefined;
  const threadId = run.threadId;
  try {
    return await runs.thread(threadId, { limit: options.limit });
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    return { threadId, error: error.message };
  }
}
