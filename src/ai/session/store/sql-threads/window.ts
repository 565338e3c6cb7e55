/**
 * The window a start loads from its thread: the newest messages that cover its token
 * budget, read backwards in growing chunks, never cutting an exchange or a tool call
 * from its result; never the whole thread.
 */
import type { SqlExecutor } from '../../../../internal/sql/index.ts';
import type { ModelMessage } from '../../../model/index.ts';
import type { ThreadStart } from '../../types.ts';
import type { SessionDriver } from '../migrations.ts';
import { decodeMessage, type MessageRow, startsExchange, type ThreadRow } from './rows.ts';

/** The first chunk of token counts a start reads backwards; each next one is twice as big. */
const FIRST_CHUNK = 32;
const MAX_CHUNK = 1024;

/** The newest messages of a thread that cover `maxTokens`, from its latest summary's position at the earliest. */
export async function readWindow(
  db: SqlExecutor,
  driver: SessionDriver,
  threadId: string,
  thread: ThreadRow,
  maxTokens: number,
): Promise<ThreadStart> {
  const t = driver.table;
  const length = Number(thread.message_count);
  const floor = thread.summary === null ? 0 : Number(thread.summary_through ?? 0);
  let start = length;
  let covered = 0;
  let chunk = FIRST_CHUNK;
  while (start > floor && covered < maxTokens) {
    const rows = await db.query<{ position: number | string; tokens: number | string }>(
      `SELECT position, tokens FROM ${t('thread_messages')}
       WHERE thread_id = ? AND position < ? AND position >= ? ORDER BY position DESC LIMIT ?`,
      [threadId, start, floor, chunk],
    );
    for (const row of rows) {
      start = Number(row.position);
      covered += Number(row.tokens);
      if (covered >= maxTokens) break;
    }
    if (rows.length < chunk) break;
    chunk = Math.min(chunk * 2, MAX_CHUNK);
  }
  const rows = await db.query<MessageRow>(
    `SELECT position, run_id, message, tokens FROM ${t('thread_messages')}
     WHERE thread_id = ? AND position >= ? ORDER BY position`,
    [threadId, start],
  );
  const history = rows.map((row) => decodeMessage(threadId, row));
  if (start === floor && floor > 0 && history.length > 0 && !startsExchange(history[0])) {
    // The summary stands for the messages before `floor`, which is a model turn (the
    // summarising run's cut): the window goes back to its exchange's user message, so
    // that what is sent starts with one and the turns after the cut are not lost.
    const earlier = await exchangeBefore(db, driver, threadId, floor, maxTokens);
    if (earlier) {
      history.unshift(...earlier.messages);
      start = earlier.start;
    }
  }
  // The window starts with a user message that is not tool results: never with the
  // answers to calls it does not hold, nor with a model turn (providers refuse both).
  while (history.length > 0 && !startsExchange(history[0])) {
    history.shift();
    start += 1;
  }
  return {
    history,
    start,
    ...(thread.summary !== null && { summary: thread.summary }),
    ...(typeof thread.agent === 'string' && { agent: thread.agent }),
  };
}

/**
 * The messages from the last user message (not tool results) before `position` up to
 * it, read backwards while their tokens stay within `maxTokens`; `undefined` when there
 * is none within that.
 */
async function exchangeBefore(
  db: SqlExecutor,
  driver: SessionDriver,
  threadId: string,
  position: number,
  maxTokens: number,
): Promise<{ messages: ModelMessage[]; start: number } | undefined> {
  const messages: ModelMessage[] = [];
  let before = position;
  let covered = 0;
  let chunk = FIRST_CHUNK;
  while (before > 0 && covered < maxTokens) {
    const rows = await db.query<MessageRow>(
      `SELECT position, run_id, message, tokens FROM ${driver.table('thread_messages')}
       WHERE thread_id = ? AND position < ? ORDER BY position DESC LIMIT ?`,
      [threadId, before, chunk],
    );
    for (const row of rows) {
      const message = decodeMessage(threadId, row);
      messages.unshift(message);
      before = Number(row.position);
      if (startsExchange(message)) return { messages, start: before };
      covered += Number(row.tokens);
      if (covered >= maxTokens) return undefined;
    }
    if (rows.length < chunk) return undefined;
    chunk = Math.min(chunk * 2, MAX_CHUNK);
  }
  return undefined;
}
