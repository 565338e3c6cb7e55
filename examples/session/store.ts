/**
 * The store both processes of the example open: SQLite by default (`.fino/sessions.db`
 * in the working directory), PostgreSQL when `--db` (or `FINO_DATABASE_URL`) is a
 * postgres:// URL, or another SQLite file.
 */
import { postgresStore, sqliteStore } from 'fino:ai/session';

export function openStore(db = process.env.FINO_DATABASE_URL || undefined) {
  if (db?.startsWith('postgres://') || db?.startsWith('postgresql://')) return postgresStore(db);
  return sqliteStore(db);
}

/** The `--db` argument, if given. */
export function dbArgument(argv = process.argv.slice(2)): string | undefined {
  const i = argv.indexOf('--db');
  return i >= 0 ? argv[i + 1] : undefined;
}
