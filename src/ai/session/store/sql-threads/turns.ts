/**
 * One run at a time on a thread: `takeThread` in the transaction that inserts a run,
 * `appendRun` in the one that ends it `done`, `releaseThread` when it is cancelled.
 */
import type { SqlExecutor } from '../../../../internal/sql/index.ts';
import type { RunState } from '../../../agent/index.ts';
import type { Model } from '../../../model/index.ts';
import { estimateMessageTokens } from '../../../model/index.ts';
import { SessionError } from '../../errors.ts';
import type { ThreadStart } from '../../types.ts';
import type { SessionDriver } from '../migrations.ts';
import { toJson } from '../sql-rows.ts';
import { ENDED, lockThread, type ThreadRow } from './rows.ts';
import { readWindow } from './window.ts';

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

/**
 * The window the run holding the thread started from, read again: a run that `takeThread`
 * already gave the thread (its insert ran again after a commit whose outcome was
 * unknown). The thread does not change while its run is unfinished.
 */
export async function threadWindow(
  tx: SqlExecutor,
  driver: SessionDriver,
  threadId: string,
  maxTokens: number,
): Promise<ThreadStart> {
  return readWindow(tx, driver, threadId, await lockThread(tx, driver, threadId), maxTokens);
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
       summary = COALESCE(?, summary), summary_through = COALESCE(?, summary_through), agent = ?, updated_at = ${driver.nowMs}
     WHERE thread_id = ?`,
    [
      length + added.length,
      run.runId,
      summary?.text ?? null,
      summary?.through ?? null,
      run.state.agent ?? null,
      run.threadId,
    ],
  );
}

/**
 * The run's summary (`state.context.summary`, decision 149) as the thread keeps it —
 * the thread position it covers up to — when it differs from the one the run started with.
 */
export function changedSummary(
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
