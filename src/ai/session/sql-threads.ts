/**
 * Threads in the SQL store (migration 6, decisions 147–149). A thread is a row of
 * `fino_threads` — its length, the run that holds it, its latest summary — and its
 * messages, one `fino_thread_messages` row each at positions 0, 1, 2, … with the
 * token estimate written with it.
 *
 * One run at a time. `takeThread` runs in the transaction that inserts a run: it locks
 * the thread's row, refuses (`THREAD_BUSY`) while the run named in `active_run_id` is
 * unfinished, and names the new run there. `appendRun` runs in the transaction that
 * ends a run `done`: it appends the run's new messages after the thread's last one and
 * frees the thread. A cancelled run frees it without appending (its turn may be open).
 * So two runs of one thread never interleave, across processes, in SQLite (writers take
 * turns) and PostgreSQL (the row lock).
 *
 * Bounded reads. A start reads the newest messages' token counts backwards along the
 * primary key (thread_id, position) in growing chunks until the budget is covered or
 * the latest summary's position is reached, then the messages themselves from that
 * position on: never the whole thread.
 */

import { hasMessageShape, MESSAGE_SHAPE } from '../../internal/message-shape.ts';
import type { SqlExecutor } from '../../internal/sql/index.ts';
import { addUsage, type RunState } from '../agent/index.ts';
import type { Model, ModelMessage, Usage } from '../model/index.ts';
import { estimateMessageTokens } from '../model/index.ts';
import { SessionError } from './errors.ts';
import type { SessionDriver } from './migrations.ts';
import { toJson } from './sql-rows.ts';
import type { ThreadMessage, ThreadPage, ThreadStart } from './types.ts';

/** A `fino_threads` row. */
interface ThreadRow {
  active_run_id: string | null;
  message_count: number | string;
  summary: string | null;
  summary_through: number | string | null;
}

/** A `fino_thread_messages` row. */
interface MessageRow {
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
const ENDED = ['done', 'cancelled'];

/** The first chunk of token counts a start reads backwards; each next one is twice as big. */
const FIRST_CHUNK = 32;
const MAX_CHUNK = 1024;

const corruptThread = (threadId: string, position: number, what: string) =>
  new SessionError(
    'CORRUPT_THREAD',
    `thread "${threadId}" cannot be read: the message at position ${position} ${what}; its row is left untouched (forget the thread or repair the row)`,
  );

/** Decodes a stored message; `CORRUPT_THREAD` naming the thread and position when it is not one. */
function decodeMessage(threadId: string, row: MessageRow): ModelMessage {
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
const answersTools = (message: ModelMessage): boolean =>
  message.role === 'user' &&
  Array.isArray(message.content) &&
  message.content.some((part) => part.type === 'tool_result');

/** Whether an exchange starts at `message`: a user message that is not tool results. */
const startsExchange = (message: ModelMessage): boolean =>
  message.role === 'user' && !answersTools(message);

/** Whether `message` asks for tools that the next message answers (calls the provider ran are answered in place). */
const asksTools = (message: ModelMessage): boolean =>
  message.role === 'assistant' &&
  Array.isArray(message.content) &&
  message.content.some((part) => part.type === 'tool_use' && part.provider === undefined);

/** Creates the thread's row on first use, then locks it and reads it (in a transaction). */
async function lockThread(
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
    `SELECT active_run_id, message_count, summary, summary_through FROM ${t('threads')} WHERE thread_id = ?${driver.forUpdate}`,
    [threadId],
  );
  return thread;
}

/**
 * Locks the thread (creating its row on first use) for the run `runId` and reads the
 * window it starts from; `THREAD_BUSY` while another run of it is unfinished.
 * Runs inside the transaction that inserts the run.
 */
export async function takeThread(
  tx: SqlExecutor,
  driver: SessionDriver,
  threadId: string,
  runId: string,
  maxTokens: number,
): Promise<ThreadStart> {
  const t = driver.table;
  const thread = await lockThread(tx, driver, threadId);
  if (thread.active_run_id !== null) {
    const [active] = await tx.query<{ status: string }>(
      `SELECT status FROM ${t('runs')} WHERE run_id = ?`,
      [thread.active_run_id],
    );
    if (active && !ENDED.includes(active.status)) {
      throw new SessionError(
        'THREAD_BUSY',
        `thread "${threadId}" is busy: its run "${thread.active_run_id}" is ${active.status}, and a thread runs one run at a time; finish, decide or cancel that run first, or create the session with threads: { busy: 'wait' } to wait for it`,
        thread.active_run_id,
      );
    }
  }
  await tx.query(
    `UPDATE ${t('threads')} SET active_run_id = ?, updated_at = ${driver.nowMs} WHERE thread_id = ?`,
    [runId, threadId],
  );
  return readWindow(tx, driver, threadId, thread, maxTokens);
}

/** The newest messages of a thread that cover `maxTokens`, from its latest summary's position at the earliest. */
async function readWindow(
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
  return { history, start, ...(thread.summary !== null && { summary: thread.summary }) };
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

/** What `appendRun` needs of the run that ended: its row's thread columns, and its final state. */
export interface EndedThreadRun {
  runId: string;
  threadId: string;
  /** The position of the first message the run loaded (`thread_start`), when it started on the thread. */
  start: number | null;
  /** How many leading `state.messages` came from the thread (`thread_loaded`). */
  loaded: number | null;
  state: RunState;
  /** The model the token estimates are made for. */
  model?: Model | string;
}

/**
 * Appends the messages a finished run added to its thread (tool results in full, each
 * with its token estimate), stores the run's summary when it changed, and frees the
 * thread. Runs inside the transaction that ends the run.
 */
export async function appendRun(
  tx: SqlExecutor,
  driver: SessionDriver,
  run: EndedThreadRun,
): Promise<void> {
  const t = driver.table;
  const thread = await lockThread(tx, driver, run.threadId);
  const length = Number(thread.message_count);
  const added = run.state.messages.slice(run.loaded ?? 0);
  for (const [i, message] of added.entries()) {
    await tx.query(
      `INSERT INTO ${t('thread_messages')} (thread_id, position, run_id, message, tokens) VALUES (?, ?, ?, ?, ?)`,
      [
        run.threadId,
        length + i,
        run.runId,
        toJson(message, 'thread message'),
        estimateMessageTokens(message, run.model),
      ],
    );
  }
  const summary = changedSummary(run, thread);
  await tx.query(
    `UPDATE ${t('threads')} SET message_count = ?,
       active_run_id = CASE WHEN active_run_id = ? THEN NULL ELSE active_run_id END,
       summary = COALESCE(?, summary), summary_through = COALESCE(?, summary_through), updated_at = ${driver.nowMs}
     WHERE thread_id = ?`,
    [
      length + added.length,
      run.runId,
      summary?.text ?? null,
      summary?.through ?? null,
      run.threadId,
    ],
  );
}

/**
 * The run's summary (`state.context.summary`, decision 149) as the thread keeps it —
 * the thread position it covers up to — when it differs from the one the run started with.
 */
function changedSummary(
  run: EndedThreadRun,
  thread: ThreadRow,
): { text: string; through: number } | undefined {
  const summary = run.state.context?.summary;
  if (summary === undefined) return undefined;
  const through = (run.start ?? 0) + summary.through;
  const stored = thread.summary_through === null ? null : Number(thread.summary_through);
  if (summary.text === thread.summary && (stored === null || through <= stored)) return undefined;
  return { text: summary.text, through };
}

/** Frees the thread `runId` holds (a cancelled run); its messages are not appended. */
export async function releaseThread(
  tx: SqlExecutor,
  driver: SessionDriver,
  threadId: string,
  runId: string,
): Promise<void> {
  await tx.query(
    `UPDATE ${driver.table('threads')} SET active_run_id = NULL, updated_at = ${driver.nowMs}
     WHERE thread_id = ? AND active_run_id = ?`,
    [threadId, runId],
  );
}

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
