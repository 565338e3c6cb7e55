/**
 * A thread as its readers reach it: a page of its messages with the usage of its runs,
 * forgetting it, forking it.
 */
import { addUsage } from '../../../agent/index.ts';
import type { Usage } from '../../../model/index.ts';
import { SessionError } from '../../errors.ts';
import type { ThreadMessage, ThreadPage } from '../../types.ts';
import type { SessionDriver } from '../migrations.ts';
import { deleteRunEvents } from '../sql-events.ts';
import { asksTools, decodeMessage, type MessageRow, type ThreadRow } from './rows.ts';

/** One page of a thread, newest last, with the usage of its runs; `undefined` for an unknown thread. */
export async function readThreadPage(
  driver: SessionDriver,
  threadId: string,
  before: number | undefined,
  limit: number,
): Promise<ThreadPage | undefined> {
  const t = driver.table;
  const [thread] = await driver.query<ThreadRow>(
    `SELECT active_run_id, message_count, summary, summary_through FROM ${t('threads')} WHERE thread_id = ?`,
    [threadId],
  );
  if (!thread) return undefined;
  const length = Number(thread.message_count);
  const rows = await driver.query<MessageRow>(
    `SELECT position, run_id, message, tokens FROM ${t('thread_messages')}
     WHERE thread_id = ? AND position < ? ORDER BY position DESC LIMIT ?`,
    [threadId, Math.min(before ?? length, length), limit],
  );
  rows.reverse();
  const messages: ThreadMessage[] = rows.map((row) => ({
    position: Number(row.position),
    ...(row.run_id !== null && { runId: row.run_id }),
    tokens: Number(row.tokens),
    message: decodeMessage(threadId, row),
  }));
  const page: ThreadPage = {
    threadId,
    length,
    messages,
    usage: await threadUsage(driver, threadId),
  };
  const first = messages[0]?.position;
  if (first !== undefined && first > 0) page.before = first;
  if (thread.active_run_id !== null) page.activeRunId = thread.active_run_id;
  if (thread.summary !== null) {
    page.summary = { text: thread.summary, through: Number(thread.summary_through ?? 0) };
  }
  return page;
}

/** The usage of a thread's runs, summed with the agent's `addUsage` (one small column per run). */
async function threadUsage(driver: SessionDriver, threadId: string): Promise<Usage> {
  const rows = await driver.query<{ run_id: string; usage: string | null }>(
    `SELECT run_id, usage FROM ${driver.table('runs')} WHERE thread_id = ? AND usage IS NOT NULL`,
    [threadId],
  );
  const total: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  for (const row of rows) {
    let usage: Usage;
    try {
      usage = JSON.parse(row.usage!) as Usage;
    } catch {
      throw new SessionError(
        'CORRUPT_RUN',
        `run "${row.run_id}" cannot be read: usage is not valid JSON; its row is left untouched`,
        row.run_id,
      );
    }
    addUsage(total, usage);
  }
  return total;
}

/**
 * Deletes a thread: its messages, its summary, and its runs with their pending calls
 * and audit trail (decision 147). `THREAD_BUSY` while a worker is running one of its
 * runs; `NOT_FOUND` for a thread the store does not know.
 */
export async function forgetThread(
  driver: SessionDriver,
  threadId: string,
): Promise<{ messages: number; runs: number }> {
  const t = driver.table;
  return driver.transaction(async (tx) => {
    const [thread] = await tx.query<ThreadRow>(
      `SELECT active_run_id, message_count FROM ${t('threads')} WHERE thread_id = ?${driver.forUpdate}`,
      [threadId],
    );
    const runs = await tx.query<{ run_id: string; status: string }>(
      `SELECT run_id, status FROM ${t('runs')} WHERE thread_id = ?${driver.forUpdate}`,
      [threadId],
    );
    if (!thread && runs.length === 0) {
      throw new SessionError('NOT_FOUND', `no thread with id "${threadId}"`);
    }
    const running = runs.find((run) => run.status === 'running');
    if (running) {
      throw new SessionError(
        'THREAD_BUSY',
        `thread "${threadId}" cannot be forgotten while its run "${running.run_id}" is running; cancel it or wait for it, then forget the thread`,
        running.run_id,
      );
    }
    const ofThread = `SELECT run_id FROM ${t('runs')} WHERE thread_id = ?`;
    await tx.query(`DELETE FROM ${t('pending')} WHERE run_id IN (${ofThread})`, [threadId]);
    await tx.query(`DELETE FROM ${t('audit')} WHERE run_id IN (${ofThread})`, [threadId]);
    await deleteRunEvents(tx, t, ofThread, [threadId]);
    await tx.query(`DELETE FROM ${t('runs')} WHERE thread_id = ?`, [threadId]);
    await tx.query(`DELETE FROM ${t('thread_messages')} WHERE thread_id = ?`, [threadId]);
    await tx.query(`DELETE FROM ${t('threads')} WHERE thread_id = ?`, [threadId]);
    return { messages: Number(thread?.message_count ?? 0), runs: runs.length };
  });
}

/**
 * Copies the first `at` messages of `threadId` (and its summary, when it covers no more
 * than them) into the new thread `into`, in the database. `NOT_FOUND`, `THREAD_EXISTS`,
 * or `INVALID_ARGUMENT` for an `at` past the end or between tool calls and their results.
 */
export async function forkThread(
  driver: SessionDriver,
  threadId: string,
  at: number | undefined,
  into: string,
): Promise<{ threadId: string; length: number }> {
  const t = driver.table;
  return driver.transaction(async (tx) => {
    const [thread] = await tx.query<ThreadRow>(
      `SELECT active_run_id, message_count, summary, summary_through FROM ${t('threads')} WHERE thread_id = ?`,
      [threadId],
    );
    if (!thread) throw new SessionError('NOT_FOUND', `no thread with id "${threadId}"`);
    const length = Number(thread.message_count);
    const end = at ?? length;
    if (!Number.isSafeInteger(end) || end < 0 || end > length) {
      throw new SessionError(
        'INVALID_ARGUMENT',
        `fork: at: expected an integer from 0 to ${length} (the length of thread "${threadId}"), received ${String(at)}`,
      );
    }
    if (end > 0) {
      const [last] = await tx.query<MessageRow>(
        `SELECT position, run_id, message, tokens FROM ${t('thread_messages')} WHERE thread_id = ? AND position = ?`,
        [threadId, end - 1],
      );
      if (last && end < length && asksTools(decodeMessage(threadId, last))) {
        throw new SessionError(
          'INVALID_ARGUMENT',
          `fork: at: ${end} would separate the tool calls of message ${end - 1} from their results in message ${end}; fork at ${end - 1} or ${end + 1}`,
        );
      }
    }
    const covered = thread.summary !== null && Number(thread.summary_through ?? 0) <= end;
    try {
      await tx.query(
        `INSERT INTO ${t('threads')} (thread_id, message_count, summary, summary_through, created_at, updated_at)
         VALUES (?, ?, ?, ?, ${driver.nowMs}, ${driver.nowMs})`,
        [
          into,
          end,
          covered ? thread.summary : null,
          covered ? Number(thread.summary_through ?? 0) : null,
        ],
      );
    } catch (error) {
      if (driver.isUniqueViolation(error)) {
        throw new SessionError('THREAD_EXISTS', `a thread with id "${into}" already exists`);
      }
      throw error;
    }
    await tx.query(
      `INSERT INTO ${t('thread_messages')} (thread_id, position, run_id, message, tokens)
       SELECT ?, position, run_id, message, tokens FROM ${t('thread_messages')} WHERE thread_id = ? AND position < ?`,
      [into, threadId, end],
    );
    return { threadId: into, length: end };
  });
}
