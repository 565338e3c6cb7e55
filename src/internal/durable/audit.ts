/**
 * The audit trail of a durable store: one row per decision or cancellation, and the
 * messages that quote it. A session's trail names the tool call (`tool_call_id`), a
 * workflow's the decision (`decision_id`); the rest of the row is the same. The tables
 * are each store's, created by its own migrations (the session store's first, the
 * workflow store's second) and written out there in full: a migration that shipped is
 * never edited, and a table built by a shared helper could change under it.
 */
import type { SqlExecutor } from '../sql/index.ts';

/** The column naming what was decided: a session's tool call, a workflow's decision. */
export type AuditSubject = 'tool_call_id' | 'decision_id';

/** One line to append to a store's audit table. */
export interface AuditLine {
  runId: string;
  action: 'approve' | 'reject' | 'resume' | 'cancel' | 'retry' | 'fork';
  /** What was decided (absent for a cancellation), in the store's subject column. */
  subject?: { column: AuditSubject; id: string; toolName: string | null };
  actor: string | null;
  note: string | null;
}

/** Appends `line` to the audit table `table`, timed by the database's clock `nowMs`. */
export async function appendAudit(
  db: SqlExecutor,
  table: string,
  nowMs: string,
  line: AuditLine,
): Promise<void> {
  const { subject } = line;
  const columns = subject ? `, ${subject.column}, tool_name` : '';
  const values = subject ? ', ?, ?' : '';
  await db.query(
    `INSERT INTO ${table} (run_id, at, action${columns}, actor, note) VALUES (?, ${nowMs}, ?${values}, ?, ?)`,
    [
      line.runId,
      line.action,
      ...(subject ? [subject.id, subject.toolName] : []),
      line.actor,
      line.note,
    ],
  );
}

/**
 * The `ALREADY_DECIDED` message for `where` (`tool call "c1" of run "r1"`), quoting the
 * last audit line about it: who decided, how and when, when the trail has it.
 */
export async function alreadyDecidedMessage(
  db: SqlExecutor,
  table: string,
  where: string,
  runId: string,
  subject: { column: AuditSubject; id: string },
): Promise<string> {
  const [last] = await db.query<{ action: string; actor: string | null; at: number | string }>(
    `SELECT action, actor, at FROM ${table} WHERE run_id = ? AND ${subject.column} = ? ORDER BY id DESC LIMIT 1`,
    [runId, subject.id],
  );
  const how = last
    ? ` (${last.action}${last.actor ? ` by ${last.actor}` : ''} at ${new Date(Number(last.at)).toISOString()})`
    : '';
  return `${where} was already decided${how}; a token is single-use`;
}

/** An audit row as both stores read it back. */
export interface AuditRow {
  run_id: string;
  at: number | string;
  action: string;
  tool_call_id?: string | null;
  decision_id?: string | null;
  tool_name: string | null;
  actor: string | null;
  note: string | null;
}

/**
 * Decodes an audit row: ISO time, action, what was decided (under `key`, from the
 * store's subject column), tool, who and note, each only when present.
 */
export function decodeAuditRow<Entry>(
  row: AuditRow,
  subject: { column: AuditSubject; key: 'toolCallId' | 'decisionId' },
): Entry {
  const entry: Record<string, unknown> = {
    at: new Date(Number(row.at)).toISOString(),
    action: row.action,
  };
  const id = row[subject.column];
  if (id !== null && id !== undefined) entry[subject.key] = id;
  if (row.tool_name !== null) entry.toolName = row.tool_name;
  if (row.actor !== null) entry.by = row.actor;
  if (row.note !== null) entry.note = row.note;
  return entry as Entry;
}

/** A run's audit trail, oldest first, decoded (see {@link decodeAuditRow}). */
export async function readAudit<Entry>(
  db: SqlExecutor,
  table: string,
  runId: string,
  subject: { column: AuditSubject; key: 'toolCallId' | 'decisionId' },
): Promise<Entry[]> {
  const rows = await db.query<AuditRow>(`SELECT * FROM ${table} WHERE run_id = ? ORDER BY id`, [
    runId,
  ]);
  return rows.map((row) => decodeAuditRow<Entry>(row, subject));
}
