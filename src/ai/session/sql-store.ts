import type { Decision, RunState } from '../agent/index.ts';
import {
  type AuditRow,
  checkDecisionFits,
  decisionAction,
  decisionNote,
  decodeAudit,
  decodeRun,
  type PendingRow,
  RECORD_FORMAT,
  type RunRow,
} from './codec.ts';
import { SessionError } from './errors.ts';
import { dueMigrations, migrationsTableSql } from './migrations.ts';
import { registerSqlAccess } from './sql-access.ts';
import type { SqlDriver, SqlExecutor } from './sql-driver.ts';
import { hashToken, isToken } from './tokens.ts';
import type {
  Actor,
  AuditEntry,
  ListFilter,
  Outcome,
  PendingRef,
  Store,
  StoredRun,
} from './types.ts';

/** Statuses whose pending calls are history, not loaded with the run. */
const FINISHED = ['done', 'cancelled'];

/** A {@link Store} over any SQL database the driver speaks; schema migrated on first use. */
export function sqlStore(driver: SqlDriver): Store {
  const t = driver.table;
  const now = driver.nowMs;
  let ready: Promise<void> | undefined;
  const schema = () => {
    ready ??= migrate(driver).catch((error) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };

  const json = (value: unknown, what: string): string => {
    try {
      const text = JSON.stringify(value);
      if (text === undefined) throw new TypeError('not representable as JSON');
      return text;
    } catch (error) {
      throw new SessionError(
        'INVALID_ARGUMENT',
        `${what} must be JSON-serializable: ${(error as Error).message}`,
      );
    }
  };

  const pendingOf = (db: SqlExecutor, runId: string) =>
    db.query<PendingRow>(
      `SELECT p.* FROM ${t('pending')} p JOIN ${t('runs')} r ON r.run_id = p.run_id AND r.round = p.round
       WHERE p.run_id = ? ORDER BY p.position`,
      [runId],
    );

  const load = async (db: SqlExecutor, row: RunRow): Promise<StoredRun> =>
    decodeRun(row, FINISHED.includes(row.status) ? [] : await pendingOf(db, row.run_id));

  const lease = (leaseMs: number) => {
    if (!Number.isFinite(leaseMs) || leaseMs <= 0) {
      throw new SessionError(
        'INVALID_ARGUMENT',
        `leaseMs: expected a positive number of milliseconds, received ${leaseMs}`,
      );
    }
    return Math.ceil(leaseMs);
  };

  const claimable = (retryErrors: boolean) =>
    `(status = 'ready' OR (status = 'running' AND lease_expires_at < ${now})${retryErrors ? ` OR status = 'error'` : ''})`;

  const takeLease = async (db: SqlExecutor, runId: string, owner: string, leaseMs: number) => {
    const [row] = await db.query<RunRow>(
      `UPDATE ${t('runs')} SET status = 'running', lease_owner = ?, lease_expires_at = ${now} + ?, updated_at = ${now}
       WHERE run_id = ? RETURNING lease_owner, lease_expires_at, updated_at`,
      [owner, lease(leaseMs), runId],
    );
    return row;
  };

  /** The run as it is once leased (decoded before the update, so a corrupt row stays untouched). */
  const leased = (run: StoredRun, taken: RunRow): StoredRun => ({
    ...run,
    status: 'running',
    leaseOwner: taken.lease_owner!,
    leaseExpiresAt: Number(taken.lease_expires_at),
    updatedAt: Number(taken.updated_at),
  });

  const store: Store = {
    async create({ runId, threadId, input, owner, leaseMs }) {
      await schema();
      try {
        await driver.query(
          `INSERT INTO ${t('runs')} (run_id, thread_id, status, format, input, round, lease_owner, lease_expires_at, created_at, updated_at)
           VALUES (?, ?, 'running', ?, ?, 0, ?, ${now} + ?, ${now}, ${now})`,
          [runId, threadId ?? null, RECORD_FORMAT, json(input, 'input'), owner, lease(leaseMs)],
        );
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
      return row ? load(driver, row) : undefined;
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
      const pending = await driver.query<PendingRow>(
        `SELECT p.* FROM ${t('pending')} p JOIN ${t('runs')} r ON r.run_id = p.run_id AND r.round = p.round
         WHERE ${where} ORDER BY p.run_id, p.position`,
        params,
      );
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
      await schema();
      const rows = await driver.query(
        `UPDATE ${t('runs')} SET state = ?, lease_expires_at = ${now} + ?, updated_at = ${now}
         WHERE run_id = ? AND lease_owner = ? AND status = 'running' RETURNING run_id`,
        [json(state, 'state'), lease(leaseMs), runId, owner],
      );
      return rows.length === 1;
    },

    async renew(runId, owner, leaseMs) {
      await schema();
      const rows = await driver.query(
        `UPDATE ${t('runs')} SET lease_expires_at = ${now} + ?
         WHERE run_id = ? AND lease_owner = ? AND status = 'running' RETURNING run_id`,
        [lease(leaseMs), runId, owner],
      );
      return rows.length === 1;
    },

    async finish(runId, owner, outcome: Outcome) {
      await schema();
      const state = 'state' in outcome ? json(outcome.state, 'state') : null;
      const pending =
        outcome.status === 'suspended'
          ? outcome.pending.map((p) => ({
              token: p.token,
              tokenHash: hashToken(p.token),
              toolCallId: p.call.toolCallId,
              call: json(p.call, 'pending call'),
            }))
          : [];
      const end = (db: SqlExecutor) =>
        db.query<RunRow>(
          `UPDATE ${t('runs')} SET status = ?, state = COALESCE(?, state), text = ?, error = ?, round = round + ?,
             lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}
           WHERE run_id = ? AND lease_owner = ? AND status = 'running' RETURNING *`,
          [
            outcome.status,
            state,
            outcome.status === 'done' ? outcome.text : null,
            outcome.status === 'error' ? outcome.error : null,
            outcome.status === 'suspended' ? 1 : 0,
            runId,
            owner,
          ],
        );
      if (outcome.status !== 'suspended') {
        const [row] = await end(driver);
        return row && load(driver, row);
      }
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
        const run = decodeRun(row, rows);
        // The tokens themselves are handed out this once: the store keeps only their hashes.
        for (const [position, p] of run.pending.entries()) p.token = pending[position].token;
        return run;
      });
    },

    async decide(ref: PendingRef, decision: Decision, actor: Actor, claim) {
      await schema();
      const decisionText = json(decision, 'decision');
      return driver.transaction(async (tx) => {
        const found = await findPending(tx, ref);
        const [row] = await tx.query<RunRow>(
          `SELECT * FROM ${t('runs')} WHERE run_id = ?${driver.forUpdate}`,
          [found.run_id],
        );
        // Read under the run's lock: a racing decision committed meanwhile is seen here.
        const run = await load(tx, row); // and an unreadable run takes no decision
        const current = run.pending.find((p) => p.tokenHash === found.token_hash);
        const where = `tool call "${found.tool_call_id}" of run "${found.run_id}"`;
        if (current ? current.decision !== undefined : found.decision !== null) {
          const [last] = await tx.query<AuditRow>(
            `SELECT * FROM ${t('audit')} WHERE run_id = ? AND tool_call_id = ? ORDER BY id DESC LIMIT 1`,
            [found.run_id, found.tool_call_id],
          );
          const how = last
            ? ` (${last.action}${last.actor ? ` by ${last.actor}` : ''} at ${new Date(Number(last.at)).toISOString()})`
            : '';
          throw new SessionError(
            'ALREADY_DECIDED',
            `${where} was already decided${how}; a token is single-use`,
            found.run_id,
          );
        }
        if (run.status !== 'suspended' || !current) {
          throw new SessionError(
            'NOT_PENDING',
            `${where} is no longer waiting for a decision (the run is ${run.status})`,
            found.run_id,
          );
        }
        checkDecisionFits(current.call, decision, where);
        await tx.query(`UPDATE ${t('pending')} SET decision = ? WHERE token_hash = ?`, [
          decisionText,
          current.tokenHash,
        ]);
        await tx.query(
          `INSERT INTO ${t('audit')} (run_id, at, action, tool_call_id, tool_name, actor, note) VALUES (?, ${now}, ?, ?, ?, ?, ?)`,
          [
            run.runId,
            decisionAction(decision),
            current.call.toolCallId,
            current.call.toolName ?? null,
            actor.by ?? null,
            decisionNote(decision, actor.note) ?? null,
          ],
        );
        current.decision = decision;
        if (run.pending.some((p) => p.decision === undefined)) return { run, claimed: false };
        if (claim) {
          return {
            run: leased(run, await takeLease(tx, run.runId, claim.owner, claim.leaseMs)),
            claimed: true,
          };
        }
        const [ready] = await tx.query<RunRow>(
          `UPDATE ${t('runs')} SET status = 'ready', updated_at = ${now} WHERE run_id = ? RETURNING updated_at`,
          [run.runId],
        );
        return {
          run: { ...run, status: 'ready', updatedAt: Number(ready.updated_at) },
          claimed: false,
        };
      });
    },

    async claim(runId, owner, leaseMs, options = {}) {
      await schema();
      return driver.transaction(async (tx) => {
        const [row] = await tx.query<RunRow>(
          `SELECT * FROM ${t('runs')} WHERE run_id = ? AND ${claimable(options.retryErrors === true)}${driver.forUpdate}`,
          [runId],
        );
        if (!row) return undefined;
        return leased(await load(tx, row), await takeLease(tx, runId, owner, leaseMs));
      });
    },

    async claimNext(owner, leaseMs, exclude = []) {
      await schema();
      return driver.transaction(async (tx) => {
        const corrupt: SessionError[] = [];
        const skip = [...exclude];
        for (;;) {
          const notIn =
            skip.length > 0 ? ` AND run_id NOT IN (${skip.map(() => '?').join(', ')})` : '';
          const [row] = await tx.query<RunRow>(
            `SELECT * FROM ${t('runs')} WHERE ${claimable(false)}${notIn}
             ORDER BY updated_at, run_id LIMIT 1${driver.forUpdateSkipLocked}`,
            skip,
          );
          if (!row) return { corrupt };
          let run: StoredRun;
          try {
            run = await load(tx, row);
          } catch (error) {
            if (!(error instanceof SessionError)) throw error;
            corrupt.push(error);
            skip.push(row.run_id);
            continue;
          }
          return { run: leased(run, await takeLease(tx, row.run_id, owner, leaseMs)), corrupt };
        }
      });
    },

    async cancel(runId, actor: Actor) {
      await schema();
      await driver.transaction(async (tx) => {
        const [row] = await tx.query<{ status: string }>(
          `SELECT status FROM ${t('runs')} WHERE run_id = ?${driver.forUpdate}`,
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
          `UPDATE ${t('runs')} SET status = 'cancelled', lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}
           WHERE run_id = ?`,
          [runId],
        );
        await tx.query(
          `INSERT INTO ${t('audit')} (run_id, at, action, actor, note) VALUES (?, ${now}, 'cancel', ?, ?)`,
          [runId, actor.by ?? null, actor.note ?? null],
        );
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

    close: () => driver.close(),
  };
  registerSqlAccess(store, { driver, migrated: schema });
  return store;

  async function findPending(tx: SqlExecutor, ref: PendingRef): Promise<PendingRow> {
    if (typeof ref === 'string') {
      const [row] = isToken(ref)
        ? await tx.query<PendingRow>(`SELECT * FROM ${t('pending')} WHERE token_hash = ?`, [
            hashToken(ref),
          ])
        : [];
      if (!row) throw new SessionError('NOT_FOUND', 'no pending call has this token');
      return row;
    }
    if (
      ref === null ||
      typeof ref !== 'object' ||
      typeof ref.runId !== 'string' ||
      typeof ref.toolCallId !== 'string'
    ) {
      throw new SessionError(
        'INVALID_ARGUMENT',
        'expected a token string or { runId, toolCallId } naming a pending call',
      );
    }
    const [row] = await tx.query<PendingRow>(
      `SELECT p.* FROM ${t('pending')} p JOIN ${t('runs')} r ON r.run_id = p.run_id AND r.round = p.round
       WHERE p.run_id = ? AND p.tool_call_id = ?`,
      [ref.runId, ref.toolCallId],
    );
    if (!row) {
      throw new SessionError(
        'NOT_FOUND',
        `run "${ref.runId}" has no pending call "${ref.toolCallId}"`,
        ref.runId,
      );
    }
    return row;
  }
}

async function migrate(driver: SqlDriver): Promise<void> {
  const t = driver.table;
  await driver.transaction(async (tx) => {
    if (driver.migrationLock) await tx.query(driver.migrationLock);
    await tx.exec(migrationsTableSql(t));
    const applied = await tx.query<{ version: number | string }>(
      `SELECT version FROM ${t('migrations')}`,
    );
    for (const migration of dueMigrations(applied.map((row) => Number(row.version)))) {
      await tx.exec(migration.sql(t, driver.dialect));
      await migration.data?.(tx, t);
      await tx.query(
        `INSERT INTO ${t('migrations')} (version, name, applied_at) VALUES (?, ?, ${driver.nowMs})`,
        [migration.version, migration.name],
      );
    }
  });
}
