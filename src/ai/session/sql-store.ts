/**
 * The {@link Store} over SQL: one implementation for SQLite and PostgreSQL, whose
 * differences are in the {@link SessionDriver}. Its invariants are written where they are
 * kept: rounds and positions of pending calls in `sql-rows.ts`, leases and the lock
 * order in `sql-lease.ts`, which copy of a pending call is authoritative in
 * `sql-decide.ts`, schema versions in `migrations.ts`.
 */

import {
  mapSqlFailures,
  migrate,
  registerStoreSql,
  type SqlExecutor,
} from '../../internal/sql/index.ts';
import type { RunState } from '../agent/index.ts';
import {
  type AuditRow,
  decodeAudit,
  decodeRun,
  type PendingRow,
  RECORD_FORMAT,
  type RunRow,
} from './codec.ts';
import { SessionError, sessionErrorOf } from './errors.ts';
import { SESSION_SCHEMA, type SessionDriver } from './migrations.ts';
import { decidePending } from './sql-decide.ts';
import { claimNextRun, claimRun } from './sql-lease.ts';
import {
  currentPendingSql,
  FINISHED,
  leaseLength,
  loadRun,
  nextRevision,
  toJson,
} from './sql-rows.ts';
import {
  appendRun,
  DEFAULT_THREAD_TOKENS,
  forgetThread,
  forkThread,
  readThreadPage,
  releaseThread,
  takeThread,
} from './sql-threads.ts';
import { hashToken } from './tokens.ts';
import type { Actor, AuditEntry, ListFilter, Outcome, Store, ThreadStart } from './types.ts';

/** Every `fino_runs` column but `state`: what `finish` reads back when it has just written the state. */
const ALL_BUT_STATE =
  'run_id, thread_id, status, format, input, text, error, error_code, round, lease_owner, lease_expires_at, progress, created_at, updated_at, revision, thread_start, thread_loaded';

/**
 * A {@link Store} over any SQL database the driver speaks; schema migrated on first use.
 * The SQL layer's failures (`DRIVER_MISSING`, `SCHEMA_TOO_NEW`, `UNAVAILABLE`) become
 * `SessionError`s here, for this store and for the stores sharing its database.
 */
export function sqlStore(sqlDriver: SessionDriver): Store {
  const driver = mapSqlFailures(sqlDriver, sessionErrorOf);
  const t = driver.table;
  const now = driver.nowMs;
  let ready: Promise<void> | undefined;
  const schema = () => {
    ready ??= migrate(driver, SESSION_SCHEMA).catch((error) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };

  const store: Store = {
    async create({ runId, threadId, input, owner, leaseMs, threadTokens }) {
      const json = toJson(input, 'input');
      const lease = leaseLength(leaseMs);
      await schema();
      const insert = (db: SqlExecutor, thread?: ThreadStart) =>
        db.query(
          `INSERT INTO ${t('runs')} (run_id, thread_id, status, format, input, round, lease_owner, lease_expires_at, created_at, updated_at, revision, thread_start, thread_loaded)
           VALUES (?, ?, 'running', ?, ?, 0, ?, ${now} + ?, ${now}, ${now}, ${nextRevision(driver)}, ?, ?)`,
          [
            runId,
            threadId ?? null,
            RECORD_FORMAT,
            json,
            owner,
            lease,
            thread?.start ?? null,
            thread?.history.length ?? null,
          ],
        );
      try {
        if (threadId === undefined) {
          await insert(driver);
          return undefined;
        }
        // The thread is taken in the transaction that inserts its run (decision 147).
        return await driver.transaction(async (tx) => {
          const thread = await takeThread(
            tx,
            driver,
            threadId,
            runId,
            threadTokens ?? DEFAULT_THREAD_TOKENS,
          );
          await insert(tx, thread);
          return thread;
        });
      } catch (error) {
        if (driver.isUniqueViolation(error)) {
          throw new SessionError('RUN_EXISTS', `a run with id "${runId}" already exists`, runId);
        }
        throw error;
      }
    },

    async get(runId) {
      await schema();
      const [row] = await driver.query<RunRow>(`SELECT * FROM ${t('runs')} WHERE run_id = ?`, [
        runId,
      ]);
      return row ? loadRun(driver, t, row) : undefined;
    },

    async list(filter: ListFilter = {}) {
      await schema();
      const where = `(CAST(? AS TEXT) IS NULL OR r.status = ?) AND (CAST(? AS TEXT) IS NULL OR r.thread_id = ?)`;
      const params = [
        filter.status ?? null,
        filter.status ?? null,
        filter.threadId ?? null,
        filter.threadId ?? null,
      ];
      const rows = await driver.query<RunRow>(
        `SELECT r.* FROM ${t('runs')} r WHERE ${where} ORDER BY r.created_at, r.run_id`,
        params,
      );
      const pending = await driver.query<PendingRow>(currentPendingSql(t, where), params);
      const byRun = new Map<string, PendingRow[]>();
      for (const p of pending) byRun.set(p.run_id, [...(byRun.get(p.run_id) ?? []), p]);
      const pendingOfRow = (row: RunRow) =>
        FINISHED.includes(row.status) ? [] : (byRun.get(row.run_id) ?? []);
      return rows.map((row) => {
        try {
          return decodeRun(row, pendingOfRow(row));
        } catch (error) {
          if (error instanceof SessionError) return error;
          throw error;
        }
      });
    },

    async checkpoint(runId, owner, state: RunState, leaseMs) {
      // Serialised before the first await: the session passes the agent's live state (decision 089).
      const json = toJson(state, 'state');
      await schema();
      const rows = await driver.query(
        `UPDATE ${t('runs')} SET state = ?, usage = ?, lease_expires_at = ${now} + ?, updated_at = ${now}, revision = ${nextRevision(driver)}
         WHERE run_id = ? AND lease_owner = ? AND status = 'running' RETURNING run_id`,
        [json, toJson(state.usage ?? null, 'usage'), leaseLength(leaseMs), runId, owner],
      );
      return rows.length === 1;
    },

    async progress(runId, owner, progress) {
      await schema();
      const rows = await driver.query(
        `UPDATE ${t('runs')} SET progress = ?
         WHERE run_id = ? AND lease_owner = ? AND status = 'running' RETURNING run_id`,
        [toJson(progress, 'progress'), runId, owner],
      );
      return rows.length === 1;
    },

    async renew(runId, owner, leaseMs) {
      await schema();
      const rows = await driver.query(
        `UPDATE ${t('runs')} SET lease_expires_at = ${now} + ?
         WHERE run_id = ? AND lease_owner = ? AND status = 'running' RETURNING run_id`,
        [leaseLength(leaseMs), runId, owner],
      );
      return rows.length === 1;
    },

    async finish(runId, owner, outcome: Outcome) {
      await schema();
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
        db.query<RunRow>(
          `UPDATE ${t('runs')} SET status = ?, state = COALESCE(?, state), usage = COALESCE(?, usage), text = ?, error = ?, error_code = ?, round = round + ?,
             progress = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}, revision = ${nextRevision(driver)}
           WHERE run_id = ? AND lease_owner = ? AND status = 'running' RETURNING ${state === null ? '*' : ALL_BUT_STATE}`,
          [
            outcome.status,
            state,
            usage,
            outcome.status === 'done' ? outcome.text : null,
            outcome.status === 'error' ? outcome.error : null,
            (outcome.status === 'error' && outcome.code) || null,
            outcome.status === 'suspended' ? 1 : 0,
            runId,
            owner,
          ],
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
        });
      }
      if (outcome.status !== 'suspended') {
        const [row] = await end(driver);
        // `error` and `ready` keep their pending calls, and their thread (decision 147).
        return row ? loadRun(driver, t, row) : undefined;
      }
      // A new round: the run's row and its pending rows change together (see sql-rows.ts).
      return driver.transaction(async (tx) => {
        const [row] = await end(tx);
        if (!row) return undefined;
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
      });
    },

    async decide(ref, decision, actor: Actor, claim) {
      await schema();
      return decidePending(driver, ref, decision, actor, claim);
    },

    async claim(runId, owner, leaseMs, options = {}) {
      await schema();
      return claimRun(driver, runId, owner, leaseMs, options.retryErrors === true);
    },

    async claimNext(owner, leaseMs, exclude = []) {
      await schema();
      return claimNextRun(driver, owner, leaseMs, exclude);
    },

    async cancel(runId, actor: Actor) {
      await schema();
      await driver.transaction(async (tx) => {
        const [row] = await tx.query<{ status: string; thread_id: string | null }>(
          `SELECT status, thread_id FROM ${t('runs')} WHERE run_id = ?${driver.forUpdate}`,
          [runId],
        );
        if (!row) throw new SessionError('NOT_FOUND', `no run with id "${runId}"`, runId);
        if (row.status === 'done' || row.status === 'cancelled') {
          throw new SessionError(
            'NOT_PENDING',
            `run "${runId}" is already ${row.status}; only an unfinished run can be cancelled`,
            runId,
          );
        }
        await tx.query(
          `UPDATE ${t('runs')} SET status = 'cancelled', lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}, revision = ${nextRevision(driver)}
           WHERE run_id = ?`,
          [runId],
        );
        await tx.query(
          `INSERT INTO ${t('audit')} (run_id, at, action, actor, note) VALUES (?, ${now}, 'cancel', ?, ?)`,
          [runId, actor.by ?? null, actor.note ?? null],
        );
        if (row.thread_id !== null) await releaseThread(tx, driver, row.thread_id, runId);
      });
    },

    async audit(runId): Promise<AuditEntry[]> {
      await schema();
      const rows = await driver.query<AuditRow>(
        `SELECT * FROM ${t('audit')} WHERE run_id = ? ORDER BY id`,
        [runId],
      );
      return rows.map(decodeAudit);
    },

    async thread(threadId, { before, limit }) {
      await schema();
      return readThreadPage(driver, threadId, before, limit);
    },

    async forgetThread(threadId) {
      await schema();
      return forgetThread(driver, threadId);
    },

    async forkThread(threadId, at, into) {
      await schema();
      return forkThread(driver, threadId, at, into);
    },

    close: () => driver.close(),
  };
  registerStoreSql(store, { driver, migrated: schema });
  return store;
}
