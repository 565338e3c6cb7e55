/**
 * `fino:ai/session`: durable runs that suspend today and resume tomorrow, in this
 * process or another, on one machine or many. A session stores every checkpoint of an
 * agent's run, hands out one single-use token per pending call, records who decided
 * what, and continues the run exactly once when the decisions are in. `inbox()` is a web
 * page over the store to decide pending calls in a browser (`serveInbox()` on Node).
 *
 * @module
 */

export { RUN_STATUSES } from './codec.ts';
export { SessionError, type SessionErrorCode } from './errors.ts';
export {
  type InboxOptions,
  type InboxServer,
  type InboxWorkflowEntry,
  type InboxWorkflowPending,
  type InboxWorkflowRun,
  type InboxWorkflows,
  inbox,
  MAX_BODY_BYTES,
  type ServeInboxOptions,
  serveInbox,
} from './inbox/index.ts';
export { describeMessage } from './message-text.ts';
export {
  type PgClientLike,
  type PgPoolLike,
  type PgResultLike,
  type PostgresStoreOptions,
  postgresStore,
} from './postgres-store.ts';
export { type RunThread, runThread } from './run-thread.ts';
export {
  type ContinueOptions,
  type DecideOptions,
  type DrainReport,
  type Session,
  type SessionOptions,
  type StartOptions,
  session,
} from './session.ts';
export {
  DEFAULT_SQLITE_PATH,
  memoryStore,
  type SqliteStoreOptions,
  sqliteStore,
} from './sqlite-store.ts';
export { MAX_THREAD_ID_LENGTH, MAX_THREAD_PAGE, type ThreadOptions } from './thread-options.ts';
export type * from './types.ts';
