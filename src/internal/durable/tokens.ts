/**
 * Single-use tokens that decide one pending call (a session run's, a workflow run's): made
 * here, kept by the stores only as hashes, and found again by token or by run and id.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../sha256.ts';
import type { SqlExecutor } from '../sql/index.ts';

/**
 * 192 random bits, URL-safe: unguessable, so holding a token is the right to decide one
 * call. Never starts with "-", so `fino sessions approve <token>` cannot read it as an
 * option (one token in 64 would otherwise; redrawing them costs under 0.03 bits).
 */
export function newToken(): string {
  let token: string;
  do token = randomBytes(24).toString('base64url');
  while (token.startsWith('-'));
  return token;
}

/** Whether a value has the shape of a token (anything else cannot match one). */
export const isToken = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{32}$/.test(value);

/**
 * What the stores keep of a token: its SHA-256, in hex. Whoever reads the database
 * learns which calls are pending, not how to decide them. Decision 062.
 */
export const hashToken = (token: string): string => sha256Hex(token);

/**
 * The row of a pending decision that `ref` names, read without a lock: by token through
 * its hash (a string that is not a token matches nothing), or by run and id through
 * `byIdSql`, the store's query taking `?` for the run id, then for the decision's id.
 * `undefined` when none matches.
 */
export async function findPendingRow<Row>(
  db: SqlExecutor,
  ref: string | { runId: unknown; id: unknown },
  sql: { table: string; byIdSql: string },
): Promise<Row | undefined> {
  if (typeof ref === 'string') {
    if (!isToken(ref)) return undefined;
    const [row] = await db.query<Row>(`SELECT * FROM ${sql.table} WHERE token_hash = ?`, [
      hashToken(ref),
    ]);
    return row;
  }
  const [row] = await db.query<Row>(sql.byIdSql, [ref.runId, ref.id]);
  return row;
}
