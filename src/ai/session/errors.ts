/**
 * What went wrong in a session, as a stable `code` a caller can branch on:
 *
 * - `NOT_FOUND`: no run, or no pending call, with that id or token;
 * - `ALREADY_DECIDED`: the pending call was already approved, rejected or resumed (tokens are single-use);
 * - `NOT_PENDING`: the run is no longer waiting for that call (cancelled, finished, or moved on);
 * - `RUN_EXISTS`: `start` was given the id of an existing run;
 * - `CORRUPT_RUN`: a stored run cannot be read (bad JSON, unknown version); the row is left untouched;
 * - `LEASE_LOST`: another worker took the run over (this worker's lease expired);
 * - `INVALID_ARGUMENT`: a caller passed something of the wrong shape;
 * - `SCHEMA_TOO_NEW`: the database was migrated by a newer fino than this one;
 * - `DRIVER_MISSING`: the store's database package (`pg`, or `better-sqlite3` on a Node.js
 *   without `node:sqlite`) is not installed; the message names the command that installs it;
 * - `THREAD_BUSY`: another run of the thread is unfinished (a thread runs one run at a
 *   time; decision 148), or `forget` met a run of the thread that is running;
 * - `THREAD_EXISTS`: `fork` was given the id of an existing thread;
 * - `CORRUPT_THREAD`: a stored thread message cannot be read; the row is left untouched;
 * - `STORE_UNAVAILABLE`: the database kept failing with errors that are normally transient
 *   (connection lost or refused, serialization failure, SQLite busy past `busyTimeoutMs`)
 *   after the store's retries, or a connection failed while committing (the change may or
 *   may not be applied); the database's own error is the `cause`. Nothing is lost: a run
 *   whose checkpoint could not be written stays claimable from its last checkpoint.
 */
export type SessionErrorCode =
  | 'NOT_FOUND'
  | 'ALREADY_DECIDED'
  | 'NOT_PENDING'
  | 'RUN_EXISTS'
  | 'CORRUPT_RUN'
  | 'LEASE_LOST'
  | 'INVALID_ARGUMENT'
  | 'SCHEMA_TOO_NEW'
  | 'DRIVER_MISSING'
  | 'THREAD_BUSY'
  | 'THREAD_EXISTS'
  | 'CORRUPT_THREAD'
  | 'STORE_UNAVAILABLE';

import type { SqlFailure } from '../../internal/sql/index.ts';

/**
 * The error every session and store operation throws for a refused request.
 *
 * @example
 * ```ts
 * import { agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { tool } from 'fino:ai/tool';
 * import { memoryStore, SessionError, session } from 'fino:ai/session';
 * import { v } from 'fino:validate';
 *
 * const remove = tool({
 *   name: 'remove_file',
 *   description: 'Delete a file.',
 *   parameters: v.object({ path: v.string() }),
 *   requiresApproval: true,
 *   execute: async ({ path }: { path: string }) => `deleted ${path}`,
 * });
 * const model = scriptedModel([
 *   { toolCalls: [{ name: 'remove_file', args: { path: 'old.log' } }] },
 *   'Deleted old.log.',
 * ]);
 * const runs = session({ store: memoryStore(), agent: agent({ model, tools: [remove] }) });
 * const run = await runs.start('Delete old.log');
 * const token = run.status === 'suspended' ? run.pending[0].token! : '';
 * await runs.approve(token, { by: 'ana' });
 * try {
 *   await runs.approve(token, { by: 'ben' }); // tokens are single-use
 * } catch (error) {
 *   if (error instanceof SessionError && error.code === 'ALREADY_DECIDED') console.log(error.code);
 *   else throw error;
 * }
 * ```
 */
export class SessionError extends Error {
  override name = 'SessionError';
  readonly code: SessionErrorCode;
  /** The run concerned, when known. */
  readonly runId?: string;

  constructor(code: SessionErrorCode, message: string, runId?: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    if (runId !== undefined) this.runId = runId;
  }
}

/** The session's error for a failure of the shared SQL layer: the same code, `UNAVAILABLE` as `STORE_UNAVAILABLE`. */
export const sessionErrorOf = (failure: SqlFailure): SessionError =>
  new SessionError(
    failure.code === 'UNAVAILABLE' ? 'STORE_UNAVAILABLE' : failure.code,
    failure.message,
    undefined,
    failure.cause === undefined ? undefined : { cause: failure.cause },
  );
