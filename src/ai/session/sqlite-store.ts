import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { SqlDriver, SqlExecutor } from './sql-driver.ts';
import { sqlStore } from './sql-store.ts';
import type { Store } from './types.ts';

/** Options of {@link sqliteStore}. */
export interface SqliteStoreOptions {
  /** How long to wait for another process's write lock, in milliseconds (default 10 000). */
  busyTimeoutMs?: number;
}

/**
 * The default SQLite file of {@link sqliteStore}, relative to the working directory.
 *
 * @example
 * ```ts
 * import { DEFAULT_SQLITE_PATH } from 'fino/ai/session';
 *
 * console.log(DEFAULT_SQLITE_PATH); // .fino/sessions.db
 * ```
 */
export const DEFAULT_SQLITE_PATH = join('.fino', 'sessions.db');

/**
 * A session store in one SQLite file: the embedded default. The file (and its folder)
 * is created on first use, in WAL mode, so readers never block the writer; several
 * processes on one machine can share it (writes take turns).
 *
 * @example
 * ```ts
 * import { session, sqliteStore } from 'fino/ai/session';
 *
 * const store = sqliteStore(); // .fino/sessions.db, created now
 * const waiting = await session({ store }).list({ status: 'suspended' });
 * for (const run of waiting) console.log(run.runId);
 * await store.close();
 * ```
 */
export function sqliteStore(
  path: string = DEFAULT_SQLITE_PATH,
  options: SqliteStoreOptions = {},
): Store {
  if (typeof path !== 'string' || path === '') {
    throw new TypeError(`sqliteStore(path): expected a file path, received ${String(path)}`);
  }
  return sqlStore(sqliteDriver(path, options.busyTimeoutMs ?? 10_000));
}

/**
 * A session store in memory, for tests and single-process use: the same SQL engine as
 * {@link sqliteStore} on an in-memory database, so it behaves exactly like the others.
 * Everything is lost when the process ends.
 *
 * @example
 * ```ts
 * import { memoryStore, session } from 'fino/ai/session';
 *
 * const runs = session({ store: memoryStore() });
 * console.log(await runs.list()); // []
 * ```
 */
export function memoryStore(): Store {
  return sqlStore(sqliteDriver(':memory:', 0));
}

function sqliteDriver(path: string, busyTimeoutMs: number): SqlDriver {
  let db: Database.Database | undefined;
  const statements = new Map<string, Database.Statement>();
  const open = (): Database.Database => {
    if (db) return db;
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path, { timeout: busyTimeoutMs });
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    return db;
  };
  const raw: SqlExecutor = {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = open().prepare(sql);
        statements.set(sql, statement);
      }
      if (statement.reader) return statement.all(...params) as Row[];
      statement.run(...params);
      return [];
    },
    async exec(sql: string) {
      open().exec(sql);
    },
  };
  // One connection: operations take turns, so no statement lands inside another's transaction.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work);
    queue = result.catch(() => {});
    return result;
  };
  return {
    dialect: 'sqlite',
    table: (name) => `fino_${name}`,
    nowMs: `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`,
    forUpdate: '',
    forUpdateSkipLocked: '',
    query: (sql, params) => serially(() => raw.query(sql, params)),
    exec: (sql) => serially(() => raw.exec(sql)),
    transaction: (work) =>
      serially(async () => {
        open().exec('BEGIN IMMEDIATE');
        try {
          const result = await work(raw);
          open().exec('COMMIT');
          return result;
        } catch (error) {
          open().exec('ROLLBACK');
          throw error;
        }
      }),
    isUniqueViolation: (error) =>
      /^SQLITE_CONSTRAINT_(PRIMARYKEY|UNIQUE)$/.test(String((error as { code?: unknown })?.code)),
    close: () =>
      serially(async () => {
        statements.clear();
        db?.close();
        db = undefined;
      }),
  };
}
