/**
 * Schedules in the workflow store (decision 221): their rows, and firing the due ones.
 * A firing locks a bounded batch of due schedules (`FOR UPDATE SKIP LOCKED` on
 * PostgreSQL, the write lock on SQLite), starts each planned tick's run with the key
 * `schedule:<id>:<tick ISO>` (`ON CONFLICT DO NOTHING`: the unique (workflow_id,
 * run_key) allows one run per tick) and advances the schedule, in one transaction — so
 * a worker killed mid-firing leaves both undone, and any number of workers start each
 * tick once.
 */
import { placeholders } from '../../internal/durable/index.ts';
import { sortableId } from '../../internal/sortable-id.ts';
import type { SqlExecutor } from '../../internal/sql/index.ts';
import { WorkflowError } from '../errors.ts';
import { jitterOf, planTicks, tickAfter } from '../schedule-ticks.ts';
import type { ScheduleSettings, StoredSchedule } from '../schedule-types.ts';
import type { WorkflowActor, WorkflowStore } from '../types.ts';
import { RECORD_FORMAT } from './rows.ts';
import type { WorkflowSql } from './store-context.ts';

/** The most schedules one firing looks at: a worker's cost per poll stays bounded with any number of schedules. */
export const SCHEDULES_PER_FIRING = 64;
/** The most runs one firing starts (a long catch-up goes on at the next). */
export const TICKS_PER_FIRING = 256;

/** The key of the run a tick starts. */
export const tickKey = (scheduleId: string, tick: number): string =>
  `schedule:${scheduleId}:${new Date(tick).toISOString()}`;

interface ScheduleRow {
  schedule_id: string;
  workflow_id: string;
  settings: string;
  input: string | null;
  paused: number | string;
  next_tick: number | string | null;
  due_at: number | string | null;
  last_tick: number | string | null;
  last_run_id: string | null;
  fired: number | string;
  missed: number | string;
  created_at: number | string;
  updated_at: number | string;
}

const numberOr = (value: number | string | null): number | undefined =>
  value === null ? undefined : Number(value);

/** A schedule row as the store returns it; `CORRUPT_RUN` naming the schedule when its settings are not JSON. */
function decodeScheduleRow(row: ScheduleRow): StoredSchedule {
  let settings: ScheduleSettings;
  try {
    settings = JSON.parse(row.settings) as ScheduleSettings;
  } catch (error) {
    throw new WorkflowError(
      'CORRUPT_RUN',
      `schedule "${row.schedule_id}" cannot be read: its settings are not JSON (${(error as Error).message})`,
    );
  }
  const optional = {
    input: row.input ?? undefined,
    nextTick: numberOr(row.next_tick),
    dueAt: numberOr(row.due_at),
    lastTick: numberOr(row.last_tick),
    lastRunId: row.last_run_id ?? undefined,
  };
  return {
    scheduleId: row.schedule_id,
    workflowId: row.workflow_id,
    settings,
    paused: Number(row.paused) === 1,
    fired: Number(row.fired),
    missed: Number(row.missed),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}

/** The schedule operations of the workflow store over `sql`. */
export function runSchedules(
  sql: WorkflowSql,
): Pick<
  WorkflowStore,
  | 'createSchedule'
  | 'getSchedule'
  | 'listSchedules'
  | 'pauseSchedule'
  | 'deleteSchedule'
  | 'fireSchedules'
  | 'nextScheduleDue'
> {
  const { driver, t, now, schema } = sql;
  const table = t('workflow_schedules');
  const audit = (tx: SqlExecutor, scheduleId: string, action: string, actor: WorkflowActor = {}) =>
    tx.query(
      `INSERT INTO ${t('workflow_audit')} (run_id, at, action, actor, note) VALUES (?, ${now}, ?, ?, ?)`,
      [`schedule:${scheduleId}`, action, actor.by ?? null, actor.note ?? null],
    );
  const lockSchedule = async (tx: SqlExecutor, scheduleId: string) => {
    const [row] = await tx.query<ScheduleRow>(
      `SELECT * FROM ${table} WHERE schedule_id = ?${driver.forUpdate}`,
      [scheduleId],
    );
    if (!row) throw new WorkflowError('NOT_FOUND', `no schedule with id "${scheduleId}"`);
    return decodeScheduleRow(row);
  };

  return {
    async createSchedule({ scheduleId, workflowId, settings, input, firstTick }, actor) {
      await schema();
      return driver.transaction(async (tx) => {
        const due = firstTick + jitterOf(scheduleId, firstTick, settings.jitterMs);
        const inserted = await tx.query<ScheduleRow>(
          `INSERT INTO ${table} (schedule_id, workflow_id, settings, input, next_tick, due_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ${now}, ${now}) ON CONFLICT (schedule_id) DO NOTHING RETURNING *`,
          [scheduleId, workflowId, JSON.stringify(settings), input ?? null, firstTick, due],
        );
        if (inserted[0]) {
          await audit(tx, scheduleId, 'schedule-create', actor);
          return { schedule: decodeScheduleRow(inserted[0]), created: true };
        }
        return { schedule: await lockSchedule(tx, scheduleId), created: false };
      });
    },

    async getSchedule(scheduleId) {
      await schema();
      const [row] = await driver.query<ScheduleRow>(
        `SELECT * FROM ${table} WHERE schedule_id = ?`,
        [scheduleId],
      );
      return row ? decodeScheduleRow(row) : undefined;
    },

    async listSchedules({ workflowId = null, limit = 1_000, after = null } = {}) {
      await schema();
      const rows = await driver.query<ScheduleRow>(
        `SELECT * FROM ${table} WHERE (CAST(? AS TEXT) IS NULL OR workflow_id = ?) AND (CAST(? AS TEXT) IS NULL OR schedule_id > ?)
         ORDER BY schedule_id LIMIT ?`,
        [workflowId, workflowId, after, after, limit],
      );
      return rows.map(decodeScheduleRow);
    },

    async pauseSchedule(scheduleId, paused, actor) {
      await schema();
      return driver.transaction(async (tx) => {
        const schedule = await lockSchedule(tx, scheduleId);
        const at = Date.now();
        const next = paused ? schedule.nextTick : tickAfter(schedule.settings, at - 1);
        const due =
          next === undefined ? null : next + jitterOf(scheduleId, next, schedule.settings.jitterMs);
        const [row] = await tx.query<ScheduleRow>(
          `UPDATE ${table} SET paused = ?, next_tick = ?, due_at = ?, updated_at = ${now} WHERE schedule_id = ? RETURNING *`,
          [paused ? 1 : 0, next ?? null, due, scheduleId],
        );
        await audit(tx, scheduleId, paused ? 'schedule-pause' : 'schedule-resume', actor);
        return decodeScheduleRow(row!);
      });
    },

    async deleteSchedule(scheduleId, actor) {
      await schema();
      await driver.transaction(async (tx) => {
        await lockSchedule(tx, scheduleId);
        await tx.query(`DELETE FROM ${table} WHERE schedule_id = ?`, [scheduleId]);
        await audit(tx, scheduleId, 'schedule-delete', actor);
      });
    },

    async fireSchedules(workflowIds, at) {
      await schema();
      if (workflowIds.length === 0) return { started: 0, more: false, corrupt: [] };
      return driver.transaction((tx) => fireBatch(sql, tx, workflowIds, at));
    },

    async nextScheduleDue(workflowIds) {
      await schema();
      if (workflowIds.length === 0) return undefined;
      const [row] = await driver.query<{ at: number | string | null }>(
        `SELECT MIN(due_at) AS at FROM ${table} WHERE paused = 0 AND workflow_id IN (${placeholders(workflowIds)})`,
        workflowIds,
      );
      return numberOr(row?.at ?? null);
    },
  };
}

/**
 * One firing: locks a bounded batch of due schedules, and starts their planned ticks
 * within the budget; unreadable schedules are skipped and named in `corrupt`.
 */
async function fireBatch(
  sql: WorkflowSql,
  tx: SqlExecutor,
  workflowIds: readonly string[],
  at: number,
): Promise<{ started: number; more: boolean; corrupt: string[] }> {
  const rows = await tx.query<ScheduleRow>(
    `SELECT * FROM ${sql.t('workflow_schedules')} WHERE paused = 0 AND due_at <= ? AND workflow_id IN (${placeholders(workflowIds)})
     ORDER BY due_at, schedule_id LIMIT ${SCHEDULES_PER_FIRING}${sql.driver.forUpdateSkipLocked}`,
    [at, ...workflowIds],
  );
  let budget = TICKS_PER_FIRING;
  let more = rows.length === SCHEDULES_PER_FIRING;
  const corrupt: string[] = [];
  for (const row of rows) {
    if (budget === 0) return { started: TICKS_PER_FIRING, more: true, corrupt };
    let schedule: StoredSchedule;
    try {
      schedule = decodeScheduleRow(row);
    } catch {
      corrupt.push(row.schedule_id);
      continue;
    }
    const fired = await fireOne(sql, tx, schedule, at, budget);
    budget -= fired.started;
    more ||= fired.more;
  }
  return { started: TICKS_PER_FIRING - budget, more, corrupt };
}

/** Starts the planned ticks of one locked schedule and advances it; how many runs it started, and whether ticks are still due. */
async function fireOne(
  sql: WorkflowSql,
  tx: SqlExecutor,
  schedule: StoredSchedule,
  at: number,
  budget: number,
): Promise<{ started: number; more: boolean }> {
  const { scheduleId, workflowId, settings } = schedule;
  const plan = planTicks(scheduleId, settings, schedule.nextTick!, at, budget);
  let lastRunId: string | undefined;
  for (const tick of plan.start) {
    const runId = sortableId('wf_');
    const [created] = await tx.query<{ run_id: string }>(
      `INSERT INTO ${sql.runs} (run_id, workflow_id, run_key, signals, status, format, input, wake_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'running', ?, ?, ${sql.now}, ${sql.now}, ${sql.now}) ON CONFLICT DO NOTHING RETURNING run_id`,
      [
        runId,
        workflowId,
        tickKey(scheduleId, tick),
        settings.signals === undefined ? null : JSON.stringify(settings.signals),
        RECORD_FORMAT,
        schedule.input ?? null,
      ],
    );
    lastRunId = created?.run_id ?? lastRunId;
  }
  const next = plan.next;
  const due = next === undefined ? null : next + jitterOf(scheduleId, next, settings.jitterMs);
  const last = plan.start.at(-1);
  await tx.query(
    `UPDATE ${sql.t('workflow_schedules')} SET next_tick = ?, due_at = ?, fired = fired + ?, missed = missed + ?,
     last_tick = COALESCE(?, last_tick), last_run_id = COALESCE(?, last_run_id), updated_at = ${sql.now} WHERE schedule_id = ?`,
    [
      next ?? null,
      due,
      plan.start.length,
      plan.missed,
      last ?? null,
      lastRunId ?? null,
      scheduleId,
    ],
  );
  return { started: plan.start.length, more: due !== null && due <= at };
}
