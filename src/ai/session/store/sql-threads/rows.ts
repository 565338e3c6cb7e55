/**
 * The rows of a thread (`fino_threads`, `fino_thread_messages`), how a stored message reads
 * back, the shapes of messages a window must not cut between, and the thread's lock.
 */
import { hasMessageShape, MESSAGE_SHAPE } from '../../../../internal/message-shape.ts';
import type { SqlExecutor } from '../../../../internal/sql/index.ts';
import type { ModelMessage } from '../../../model/index.ts';
import { SessionError } from '../../errors.ts';
import type { SessionDriver } from '../migrations.ts';

/** A `fino_threads` row. */
export interface ThreadRow {
  active_run_id: string | null;
  message_count: number | string;
  summary: string | null;
  summary_through: number | string | null;
  /** The agent the thread's last run finished with, after a handoff (migration 8). */
  agent?: string | null;
}

/** A `fino_thread_messages` row. */
export interface MessageRow {
  position: number | string;
  run_id: string | null;
  message: string;
  tokens: number | string;
}

/**
 * The tokens of newest messages a start loads when the session was given no budget and
 * its agent's model declares no context window.
 */
export const DEFAULT_THREAD_TOKENS = 32_000;

/** Statuses of a run that no longer holds its thread. */
export const ENDED = ['done', 'cancelled'];

const corruptThread = (threadId: string, position: number, what: string) =>
  new SessionError(
    'CORRUPT_THREAD',
    `thread "${threadId}" cannot be read: the message at position ${position} ${what}; its row is left untouched (forget the thread or repair the row)`,
  );

/** Decodes a stored message; `CORRUPT_THREAD` naming the thread and position when it is not one. */
export function decodeMessage(threadId: string, row: MessageRow): ModelMessage {
  const position = Number(row.position);
  let message: unknown;
  try {
    message = JSON.parse(row.message);
  } catch (error) {
    throw corruptThread(threadId, position, `is not valid JSON (${(error as Error).message})`);
  }
  if (!hasMessageShape(message)) {
    throw corruptThread(threadId, position, `is not a message (${MESSAGE_SHAPE})`);
  }
  return message as ModelMessage;
}

/** Whether a message answers tool calls: a window must not start with it (its calls would be cut off). */
export const answersTools = (message: ModelMessage): boolean =>
  message.role === 'user' &&
  Array.isArray(message.content) &&
  message.content.some((part) => part.type === 'tool_result');

/** Whether an exchange starts at `message`: a user message that is not tool results. */
export const startsExchange = (message: ModelMessage): boolean =>
  message.role === 'user' && !answersTools(message);

/** Whether `message` asks for tools that the next message answers (calls the provider ran are answered in place). */
export const asksTools = (message: ModelMessage): boolean =>
  message.role === 'assistant' &&
  Array.isArray(message.content) &&
  message.content.some((part) => part.type === 'tool_use' && part.provider === undefined);

/** Creates the thread's row on first use, then locks it and reads it (in a transaction). */
export async function lockThread(
  tx: SqlExecutor,
  driver: SessionDriver,
  threadId: string,
): Promise<ThreadRow> {
  const t = driver.table;
  await tx.query(
    `INSERT INTO ${t('threads')} (thread_id, message_count, created_at, updated_at)
     VALUES (?, 0, ${driver.nowMs}, ${driver.nowMs}) ON CONFLICT (thread_id) DO NOTHING`,
    [threadId],
  );
  const [thread] = await tx.query<ThreadRow>(
    `SELECT active_run_id, message_count, summary, summary_through, agent FROM ${t('threads')} WHERE thread_id = ?${driver.forUpdate}`,
    [threadId],
  );
  return thread;
}
