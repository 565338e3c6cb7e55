/**
 * Direct access to a SQLite file behind a store's back, with the engine this Node.js has:
 * `node:sqlite` (Node.js 22.13 and later), else `better-sqlite3` (Node.js 20). Tests use
 * it to read and write rows the way another process would.
 *
 * @example
 * ```ts
 * const db = openSqlite('/tmp/x/sessions.db');
 * db.prepare('SELECT * FROM fino_runs WHERE run_id = ?').get('run-1');
 * db.close();
 * ```
 */
import { createRequire } from 'node:module';

/** A prepared statement: the methods both engines share. */
export interface RawStatement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** An open SQLite connection: the methods both engines share. */
export interface RawSqlite {
  prepare(sql: string): RawStatement;
  exec(sql: string): void;
  close(): void;
}

type Open = new (path: string) => RawSqlite;

/** The built-in `node:sqlite`, when this Node.js has it without a flag. */
export const builtinSqlite = (): { DatabaseSync: Open } | undefined => {
  try {
    return process.getBuiltinModule?.('node:sqlite') as { DatabaseSync: Open } | undefined;
  } catch {
    return undefined;
  }
};

/** Opens `path` (created when missing) with this Node.js's SQLite engine. */
export function openSqlite(path: string): RawSqlite {
  const builtin = builtinSqlite();
  if (builtin) return new builtin.DatabaseSync(path);
  const BetterSqlite3 = createRequire(import.meta.url)('better-sqlite3') as Open;
  return new BetterSqlite3(path);
}
