import type { StoredError } from './types.ts';

/**
 * The errors of `fino:workflow`: {@link WorkflowError} for every refusal and every way a
 * run fails, and {@link NonRetryableError} for a step that must not be retried.
 */

/**
 * What went wrong, as a stable `code` a caller can branch on:
 *
 * - `NONDETERMINISM`: the workflow's code no longer matches its history (a step id used
 *   twice, or a replay meeting a different step than the history holds); the run fails;
 * - `STEP_FAILED`: a step threw on its last attempt (its error is kept in the history);
 * - `NOT_JSON`: a step result, input, output or signal payload has no exact JSON form;
 * - `TOO_LARGE`: such a value is larger than the workflow's `maxValueBytes`;
 * - `INVALID_INPUT` / `INVALID_OUTPUT`: the workflow's schema refused its input or output;
 * - `INVALID_ARGUMENT`: a caller passed something of the wrong shape;
 * - `NOT_FOUND`: no run with that id;
 * - `KEY_CONFLICT`: `start` was given a `key` already used with another input;
 * - `UNKNOWN_SIGNAL`: a signal name the workflow does not declare;
 * - `RUN_FINISHED`: the run is done, failed or cancelled, and takes no more signals or cancels;
 * - `SIGNAL_QUEUE_FULL`: the run already holds the most unconsumed signals it may;
 * - `ALREADY_DECIDED`: the pending decision was already taken (tokens are single-use);
 * - `NOT_PENDING`: the run no longer waits for that decision (it ended);
 * - `CANCELLED`: the run was cancelled (thrown at its waits, and by `result`);
 * - `RUN_FAILED`: `result` of a run that ended in error;
 * - `TIMEOUT`: `result` waited longer than its `timeoutMs`;
 * - `SCHEMA_TOO_NEW`: the database was migrated by a newer fino than this one;
 * - `DRIVER_MISSING`: the store's database package is not installed; the message names the command;
 * - `STORE_UNAVAILABLE`: the database kept failing with normally transient errors after the retries;
 * - `CORRUPT_RUN`: a stored run cannot be read: a run row is left untouched; a run whose
 *   history or input cannot be read is ended as `error` with it, its rows kept (decision 180);
 * - `STREAM_FULL`: a stream out of the run holds the most chunks or bytes it may, or the run
 *   writes the most streams it may (decision 227);
 * - `STREAM_CLOSED`: `ctx.writeStream` to a stream the run closed.
 * - `CHILD_CANCELLED`: a child run awaited by `ctx.child` was cancelled (decision 232);
 * - `RUN_NOT_FAILED`: `retry` of a run that did not end in `error` (decision 233).
 * - `UNKNOWN_QUERY` / `UNKNOWN_UPDATE`: the run registered no handler of that name;
 * - `QUERY_FAILED`: a query handler threw, or tried to change the run (a `ctx` call);
 * - `UPDATE_REJECTED`: an update's validator refused it (nothing was recorded);
 * - `UPDATE_FAILED`: an update handler threw (recorded: the same update id fails again);
 * - `UPDATE_QUEUE_FULL`: the run already holds the most unanswered queries and updates it may.
 * - `IDENTITY_IN_USE`: a live worker process already holds that worker `identity` (decision 239).
 */
export type WorkflowErrorCode =
  | 'NONDETERMINISM'
  | 'STEP_FAILED'
  | 'NOT_JSON'
  | 'TOO_LARGE'
  | 'INVALID_INPUT'
  | 'INVALID_OUTPUT'
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'KEY_CONFLICT'
  | 'UNKNOWN_SIGNAL'
  | 'RUN_FINISHED'
  | 'SIGNAL_QUEUE_FULL'
  | 'ALREADY_DECIDED'
  | 'NOT_PENDING'
  | 'CANCELLED'
  | 'RUN_FAILED'
  | 'TIMEOUT'
  | 'SCHEMA_TOO_NEW'
  | 'DRIVER_MISSING'
  | 'STORE_UNAVAILABLE'
  | 'CORRUPT_RUN'
  | 'STREAM_FULL'
  | 'STREAM_CLOSED'
  | 'CHILD_CANCELLED'
  | 'RUN_NOT_FAILED'
  | 'UNKNOWN_QUERY'
  | 'UNKNOWN_UPDATE'
  | 'QUERY_FAILED'
  | 'UPDATE_REJECTED'
  | 'UPDATE_FAILED'
  | 'UPDATE_QUEUE_FULL'
  | 'IDENTITY_IN_USE';

/**
 * The error of every workflow operation that is refused, and of every run that fails.
 *
 * @example
 * ```ts
 * import { memoryWorkflowStore, WorkflowError, workflow } from 'fino:workflow';
 *
 * const hello = workflow({ id: 'hello', run: async () => 'hi' });
 * const store = memoryWorkflowStore();
 * try {
 *   await hello.get('no-such-run', { store });
 * } catch (error) {
 *   if (error instanceof WorkflowError) console.log(error.code); // NOT_FOUND
 *   else throw error;
 * }
 * await store.close();
 * ```
 */
export class WorkflowError extends Error {
  override name = 'WorkflowError';
  readonly code: WorkflowErrorCode;
  /** The run concerned, when known. */
  readonly runId?: string;

  constructor(
    code: WorkflowErrorCode,
    message: string,
    options?: { runId?: string; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options?.runId !== undefined) this.runId = options.runId;
  }
}

/**
 * Thrown by a step to fail it at once, without the retries its `retry` option allows
 * (a refused card, a 404: trying again cannot help). Recognised by `name`, so copies of
 * the module loaded twice agree.
 *
 * @example
 * ```ts
 * import { memoryWorkflowStore, NonRetryableError, worker, workflow } from 'fino:workflow';
 *
 * let attempts = 0;
 * const charge = workflow({
 *   id: 'charge',
 *   async run(ctx) {
 *     return ctx.step('charge-card', () => {
 *       attempts++;
 *       throw new NonRetryableError('card refused');
 *     }, { retry: { maxAttempts: 5 } });
 *   },
 * });
 * const store = memoryWorkflowStore();
 * const { runId } = await charge.start(undefined, { store });
 * await worker({ store, workflows: [charge] }).drain();
 * console.log((await charge.get(runId, { store })).error?.message, attempts); // step "charge-card" failed: card refused 1
 * await store.close();
 * ```
 */
export class NonRetryableError extends Error {
  override name = 'NonRetryableError';
}

/** Whether a thrown value is a {@link NonRetryableError}, from any copy of the module. */
export function isNonRetryable(error: unknown): boolean {
  try {
    return (error as { name?: unknown } | null)?.name === 'NonRetryableError';
  } catch {
    return false;
  }
}

/**
 * The `CORRUPT_RUN` error of a history entry that cannot be read (decision 180), naming
 * the run, the entry and its place in the history.
 */
export function unreadableEntry(
  runId: string,
  entryId: string,
  seq: number | string,
  why: string,
): WorkflowError {
  return new WorkflowError(
    'CORRUPT_RUN',
    `history entry "${entryId}" (seq ${seq}) of workflow run "${runId}" cannot be read: ${why}`,
    { runId },
  );
}

/**
 * The most characters of a failure's message that a run or its history keeps: a step
 * that throws a 20 MiB message must not make every replay read 20 MiB.
 */
export const MAX_ERROR_MESSAGE_CHARS = 8_192;

/**
 * `message` within {@link MAX_ERROR_MESSAGE_CHARS}: when longer, its start and a note
 * saying how long it was; never splits a surrogate pair.
 */
export function boundedMessage(message: string): string {
  if (message.length <= MAX_ERROR_MESSAGE_CHARS) return message;
  const note = `… (truncated: ${message.length} characters in all)`;
  let end = MAX_ERROR_MESSAGE_CHARS - note.length;
  const last = message.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return message.slice(0, end) + note;
}

/**
 * The `STEP_FAILED` error a step, call, child workflow or agent leaves in the history:
 * what failed, after how many attempts when more than one, and why (bounded by
 * {@link boundedMessage}).
 */
export function stepFailure(where: string, cause: string, attempts = 1): StoredError {
  const after = attempts > 1 ? ` after ${attempts} attempts` : '';
  return {
    name: 'WorkflowError',
    code: 'STEP_FAILED',
    message: boundedMessage(`${where} failed${after}: ${cause}`),
  };
}
