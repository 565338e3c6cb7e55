/**
 * `fino:ai/session`: durable runs that suspend today and resume tomorrow, in this
 * process or another, on one machine or many. A session stores every checkpoint of an
 * agent's run, hands out one single-use token per pending call, records who decided
 * what, and continues the run exactly once when the decisions are in. Runs carry the
 * agent's context window and budgets: a run continues a **thread** (`threadId`: the
 * thread's newest messages that fit the window, its latest summary, one run at a time),
 * and a failed run keeps its error's code (`BUDGET_EXCEEDED`, …) to be continued with a
 * new budget. `inbox()` is a web page over the store to decide pending calls in a
 * browser (`serveInbox()` on Node), workflow decisions included.
 *
 * The rooms: at the top, the session API — `session.ts` and its parts (`session-*.ts`),
 * the driver of a run (`drive-run.ts`), what callers are shown (`run-view.ts`,
 * `run-thread.ts`, `message-text.ts`), the checks on threads (`thread-options.ts`), a run's
 * recorded events (`run-recorder.ts` writes them, `run-events.ts` follows them, woken by
 * `event-notifier.ts`; `events-option.ts`, `run-event-types.ts`), and
 * the `Store` interface with the stored records (`types.ts`) and errors; the stores in
 * `store/` (SQLite, PostgreSQL, the SQL store in its parts, threads, migrations); the
 * inbox in `inbox/`. The rules it shares with the workflow store
 * (leases, tokens, the decision rule, the audit trail, lazy migrations) are the durable
 * kernel's, `src/internal/durable/`. MCP task records are no longer this module's
 * business: they live in `ai/mcp`.
 *
 * @module
 */

export { SessionError, type SessionErrorCode } from './errors.ts';
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_EVENTS, type EventsOption } from './events-option.ts';
export {
  headerIdentity,
  type IdentifyRequest,
  type InboxIdentity,
  type InboxOptions,
  type InboxServer,
  type InboxWorkflowEntry,
  type InboxWorkflowPending,
  type InboxWorkflowRun,
  type InboxWorkflowSchedule,
  type InboxWorkflows,
  inbox,
  MAX_BODY_BYTES,
  type ServeInboxOptions,
  serveInbox,
} from './inbox/index.ts';
export { describeMessage } from './message-text.ts';
export { type RunThread, runThread } from './run-thread.ts';
export {
  type ContinueOptions,
  type DecideOptions,
  type DrainReport,
  type EventsOptions,
  type Session,
  type SessionOptions,
  type StartOptions,
  session,
} from './session.ts';
export {
  DEFAULT_SQLITE_PATH,
  memoryStore,
  type PgClientLike,
  type PgPoolLike,
  type PgResultLike,
  type PostgresStoreOptions,
  postgresStore,
  RUN_STATUSES,
  type SqliteStoreOptions,
  sqliteStore,
} from './store/index.ts';
export { MAX_THREAD_ID_LENGTH, MAX_THREAD_PAGE, type ThreadOptions } from './thread-options.ts';
export type * from './types.ts';
