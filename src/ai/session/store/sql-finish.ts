/**
 * How a worker ends its turn with a run in the SQL store: `finish`, the last write of its
 * lease (fenced like every other: see `sql-lease.ts`). A suspension opens a new round of
 * pending calls (see `sql-rows.ts`), a run of a thread that is done appends its messages
 * to the thread (decision 147), and the state just written is not read back.
 *
 * Its transactions are idempotent (decision 170): run again after a commit whose outcome
 * is unknown, a `finish` that landed finds the lease gone and answers `undefined` (the
 * caller reads the run as it is), except a suspension, which finds its first token's hash
 * among the pending rows and answers the run with its tokens — handed out this once.
 */
import { hashToken, writeIfHeld } from '../../../internal/durable/index.ts';
import type { SqlExecutor } from '../../../internal/sql/index.ts';
import type { Outcome, StoredRun } from '../types.ts';
import { decodeRun, type PendingRow, type RunRow } from './codec.ts';
import type { SessionDriver } from './migrations.ts';
import { loadRun, nextRevision, toJson } from './sql-rows.ts';
import { appendRun } from './sql-threads/index.ts';

/** Every `fino_runs` column but `state`: what `finish` reads back when it has just written the state. */
const ALL_BUT_STATE =
  'run_id, thread_id, status, format, input, text, error, error_code, round, lease_owner, lease_expires_at, progress, created_at, updated_at, revision, thread_start, thread_loaded';

/** Ends `owner`'s turn with the run (see `Store.finish`); `undefined` once its lease is lost. */
export async function finishRun(
  driver: SessionDriver,
  runId: string,
  owner: string,
  outcome: Outcome,
): Promise<StoredRun | undefined> {
  const t = driver.table;
  const state = 'state' in outcome ? toJson(outcome.state, 'state') : null;
  const usage = 'state' in outcome ? toJson(outcome.state.usage ?? null, 'usage') : null;
  const pending =
    outcome.status === 'suspended'
      ? outcome.pending.map((p) => ({
          token: p.token,
          tokenHash: hashToken(p.token),
          toolCallId: p.call.toolCallId,
          call: toJson(p.call, 'pending call'),
        }))
      : [];
  const end = (db: SqlExecutor) =>
    writeIfHeld<RunRow>(
      db,
      {
        table: t('runs'),
        set: `status = ?, state = COALESCE(?, state), usage = COALESCE(?, usage), text = ?, error = ?, error_code = ?, round = round + ?,
             progress = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = ${driver.nowMs}, revision = ${nextRevision(driver)}`,
        params: [
          outcome.status,
          state,
          usage,
          outcome.status === 'done' ? outcome.text : null,
          outcome.status === 'error' ? outcome.error : null,
          (outcome.status === 'error' && outcome.code) || null,
          outcome.status === 'suspended' ? 1 : 0,
        ],
        returning: state === null ? '*' : ALL_BUT_STATE,
      },
      runId,
      owner,
    );
  // The state just written is not read back and parsed again: the run carries the caller's (decision 089).
  const ended = (row: RunRow, rows: readonly PendingRow[]) =>
    'state' in outcome
      ? { ...decodeRun({ ...row, state: null }, rows), state: outcome.state }
      : decodeRun(row, rows);
  if (outcome.status === 'done') {
    // A done run has no current pending calls (see sql-rows.ts); a run of a thread
    // appends its messages to it in the same transaction (decision 147).
    return driver.transaction(async (tx) => {
      const [row] = await end(tx);
      if (!row) return undefined;
      if (row.thread_id !== null) {
        await appendRun(tx, driver, {
          runId,
          threadId: row.thread_id,
          start: row.thread_start == null ? null : Number(row.thread_start),
          loaded: row.thread_loaded == null ? null : Number(row.thread_loaded),
          state: outcome.state,
          model: outcome.model,
        });
      }
      return ended(row, []);
    }, IDEMPOTENT);
  }
  if (outcome.status !== 'suspended') {
    const [row] = await end(driver);
    // `error` and `ready` keep their pending calls, and their thread (decision 147).
    return row ? loadRun(driver, t, row) : undefined;
  }
  // A new round: the run's row and its pending rows change together (see sql-rows.ts).
  return driver.transaction(async (tx) => {
    const [row] = await end(tx);
    if (!row) return ownSuspension(tx, t, runId, pending);
    const rows: PendingRow[] = [];
    for (const [position, { tokenHash, toolCallId, call }] of pending.entries()) {
      const inserted = {
        token_hash: tokenHash,
        run_id: runId,
        round: Number(row.round),
        tool_call_id: toolCallId,
        position,
        call,
      };
      await tx.query(
        `INSERT INTO ${t('pending')} (token_hash, run_id, round, tool_call_id, position, call) VALUES (?, ?, ?, ?, ?, ?)`,
        [tokenHash, runId, inserted.round, toolCallId, position, call],
      );
      rows.push({ ...inserted, decision: null });
    }
    const run = ended(row, rows);
    // The tokens themselves are handed out this once: the store keeps only their hashes.
    for (const [position, p] of run.pending.entries()) p.token = pending[position].token;
    return run;
  }, IDEMPOTENT);
}

const IDEMPOTENT = { idempotent: true } as const;

/**
 * The run suspended by this very `finish`, when its pending rows are there already (its
 * first commit landed though its outcome was unknown), with the tokens handed out; else
 * `undefined`: the lease was lost.
 */
async function ownSuspension(
  tx: SqlExecutor,
  t: SessionDriver['table'],
  runId: string,
  pending: ReadonlyArray<{ token: string; tokenHash: string }>,
): Promise<StoredRun | undefined> {
  if (pending.length === 0) return undefined;
  const [mine] = await tx.query<RunRow>(
    `SELECT r.* FROM ${t('runs')} r JOIN ${t('pending')} p ON p.run_id = r.run_id
     WHERE r.run_id = ? AND p.token_hash = ?`,
    [runId, pending[0].tokenHash],
  );
  if (!mine) return undefined;
  const run = await loadRun(tx, t, mine);
  const tokens = new Map(pending.map((p) => [p.tokenHash, p.token]));
  for (const p of run.pending) p.token = tokens.get(p.tokenHash);
  return run;
}
