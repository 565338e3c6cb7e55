/**
 * Run events in the SQL store (migration 9): a run's log, appended to by the worker that
 * holds the run and read by anyone (`Session.events`). Decisions 250 and 251.
 *
 * The log's size is kept on the run's row (`event_seq`, `event_bytes`,
 * `events_truncated`), changed only in the transaction that appends, under the run's row
 * lock taken first (the store's lock order, `sql-lease.ts`) and only while the appender
 * holds the lease: a worker that lost the run writes nothing, and two appenders never
 * number events alike, so `seq` is contiguous from 1.
 */
import { HELD_BY, placeholders } from '../../../internal/durable/index.ts';
import type { SqlExecutor } from '../../../internal/sql/index.ts';
import { SessionError } from '../errors.ts';
import type { EventLimits, NewRunEvent, RunEvent } from '../run-event-types.ts';
import type { RunStatus, Store } from '../types.ts';
import type { SessionDriver, TableName } from './migrations.ts';

/** The most rows one `INSERT` carries (4 parameters each: within every driver's limit). */
const INSERT_ROWS = 200;
/** The most events one `readEvents` returns. */
export const MAX_EVENTS_PAGE = 1000;

const TRUNCATED = JSON.stringify({ type: 'events-truncated' });

/** The run's log as its row keeps it. */
interface LogRow {
  event_seq: number | string;
  event_bytes: number | string;
  events_truncated: number | string | boolean;
}

/** A `fino_run_events` row. */
interface EventRow {
  seq: number | string;
  at: number | string;
  event: string;
}

/** The SQL store's `appendEvents` and `readEvents` over `driver`. */
export function eventQueries(
  driver: SessionDriver,
  schema: () => Promise<void>,
): Pick<Store, 'appendEvents' | 'readEvents'> {
  const t = driver.table;
  return {
    async appendEvents(runId, owner, events, limits) {
      for (const event of events) checkNewEvent(event);
      await schema();
      if (events.length === 0) return true;
      return driver.transaction(async (tx) => {
        const [log] = await tx.query<LogRow>(
          `SELECT event_seq, event_bytes, events_truncated FROM ${t('runs')}
           WHERE run_id = ? AND ${HELD_BY}${driver.forUpdate}`,
          [runId, owner],
        );
        if (!log) return false;
        const kept = fitToLimits(log, events, limits);
        await insertEvents(tx, t, runId, kept.rows);
        await tx.query(
          `UPDATE ${t('runs')} SET event_seq = ?, event_bytes = ?, events_truncated = ? WHERE run_id = ?`,
          [kept.seq, kept.bytes, kept.truncated ? 1 : 0, runId],
        );
        return true;
      });
    },

    async readEvents(runId, after, limit) {
      checkPage(after, limit);
      await schema();
      const [run] = await driver.query<{ status: RunStatus }>(
        `SELECT status FROM ${t('runs')} WHERE run_id = ?`,
        [runId],
      );
      if (!run) return undefined;
      const rows = await driver.query<EventRow>(
        `SELECT seq, at, event FROM ${t('run_events')} WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
        [runId, after, limit],
      );
      return { status: run.status, events: decodeEvents(runId, rows) };
    },
  };
}

/** Deletes the events of the runs `ofRuns` (SQL selecting `run_id`s, with `params`) selects. */
export async function deleteRunEvents(
  tx: SqlExecutor,
  t: TableName,
  ofRuns: string,
  params: readonly unknown[],
): Promise<void> {
  await tx.query(`DELETE FROM ${t('run_events')} WHERE run_id IN (${ofRuns})`, params);
}

/**
 * The rows of `events` that go into a log that is as `log` says, and the log after them:
 * events while they fit `limits` (one place is kept for the marker), then one
 * `events-truncated` marker, then only `finish` events (they tell a follower how each
 * drive ended; decision 251).
 */
function fitToLimits(log: LogRow, events: readonly NewRunEvent[], limits: EventLimits) {
  let seq = Number(log.event_seq);
  let bytes = Number(log.event_bytes);
  let truncated = Number(log.events_truncated) === 1 || log.events_truncated === true;
  const rows: { seq: number; at: number; json: string }[] = [];
  const add = (at: number, json: string) => {
    seq += 1;
    bytes += Buffer.byteLength(json);
    rows.push({ seq, at, json });
  };
  for (const { at, type, json } of events) {
    if (type === 'finish') add(at, json);
    else if (truncated) continue;
    else if (
      type === 'events-truncated' ||
      seq + 2 > limits.maxEvents ||
      bytes + Buffer.byteLength(json) + TRUNCATED.length > limits.maxBytes
    ) {
      truncated = true;
      add(at, TRUNCATED);
    } else add(at, json);
  }
  return { rows, seq, bytes, truncated };
}

async function insertEvents(
  tx: SqlExecutor,
  t: TableName,
  runId: string,
  rows: readonly { seq: number; at: number; json: string }[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_ROWS) {
    const chunk = rows.slice(start, start + INSERT_ROWS);
    const values = chunk.map(() => `(${placeholders([1, 2, 3, 4])})`).join(', ');
    await tx.query(
      `INSERT INTO ${t('run_events')} (run_id, seq, at, event) VALUES ${values}`,
      chunk.flatMap((row) => [runId, row.seq, row.at, row.json]),
    );
  }
}

/**
 * The events of `rows`, decoded; an unreadable row ends them. `CORRUPT_RUN` naming the
 * row's `seq` (and how to read past it) when it is the first.
 */
function decodeEvents(runId: string, rows: readonly EventRow[]): RunEvent[] {
  const events: RunEvent[] = [];
  for (const row of rows) {
    const seq = Number(row.seq);
    let event: unknown;
    try {
      event = JSON.parse(row.event);
    } catch {
      // left undefined: refused below
    }
    if (!isEventObject(event)) {
      if (events.length > 0) return events;
      throw new SessionError(
        'CORRUPT_RUN',
        `run "${runId}": stored event ${seq} cannot be read (expected the JSON of an event object with a string "type"); read on past it with events(runId, { after: ${seq} })`,
        runId,
      );
    }
    events.push({ runId, seq, at: new Date(Number(row.at)).toISOString(), event });
  }
  return events;
}

function isEventObject(value: unknown): value is RunEvent['event'] {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof (value as { type?: unknown }).type === 'string'
  );
}

/** `INVALID_ARGUMENT` unless `event` is a time, a type and the JSON text of an object of that type. */
function checkNewEvent(event: NewRunEvent): void {
  const ok =
    event !== null &&
    typeof event === 'object' &&
    Number.isFinite(event.at) &&
    typeof event.type === 'string' &&
    typeof event.json === 'string' &&
    event.json.startsWith('{');
  if (!ok) {
    throw new SessionError(
      'INVALID_ARGUMENT',
      'appendEvents: expected events of { at: epoch milliseconds, type: string, json: the JSON text of the event }',
    );
  }
}

/** `INVALID_ARGUMENT` unless `after` is a whole number ≥ 0 and `limit` one from 1 to {@link MAX_EVENTS_PAGE}. */
function checkPage(after: number, limit: number): void {
  if (!Number.isSafeInteger(after) || after < 0) {
    throw new SessionError(
      'INVALID_ARGUMENT',
      `readEvents: after: expected a whole number ≥ 0, received ${String(after)}`,
    );
  }
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_EVENTS_PAGE) {
    throw new SessionError(
      'INVALID_ARGUMENT',
      `readEvents: limit: expected a whole number from 1 to ${MAX_EVENTS_PAGE}, received ${String(limit)}`,
    );
  }
}
