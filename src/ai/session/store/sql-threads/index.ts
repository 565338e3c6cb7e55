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
 *
 * The room: rows and the thread's lock (`rows.ts`), the window a start loads
 * (`window.ts`), one run at a time (`turns.ts`), pages, forgetting and forking
 * (`pages.ts`). It imports the session store's rows and errors, the agent's usage and
 * the model's token estimates; the rest of `ai/session` reaches it through this file.
 */
export { forgetThread, forkThread, readThreadPage } from './pages.ts';
export { DEFAULT_THREAD_TOKENS } from './rows.ts';
export {
  appendRun,
  type EndedThreadRun,
  releaseThread,
  takeThread,
  threadWindow,
} from './turns.ts';
