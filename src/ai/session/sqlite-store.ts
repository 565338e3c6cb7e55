import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkDuration } from '../../internal/duration.ts';
import { type Importer, importDriver } from './driver-import.ts';
import type { SqlDriver, SqlExecutor } from './sql-driver.ts';
import { sqlStore } from './sql-store.ts';
import type { Store } from './types.ts';

/** Options of {@link sqliteStore}. */
export interface SqliteStoreOptions {
  /**
   * How long to wait for another process's write lock, in milliseconds (default 10 000;
   * 0 fails at once; at most 2^31 − 1, else a `RangeError` at construction).
   */
  busyTimeoutMs?: number;
}

/** Owner read and write, nothing for anyone else: the file holds every run and decision. */
const PRIVATE_MODE = 0o600;

/**
 * The default SQLite file of {@link sqliteStore}, relative to the working directory.
 *
 * @example
 * ```ts
 * import { DEFAULT_SQLITE_PATH } from 'fino:ai/session';
 *
 * console.log(DEFAULT_SQLITE_PATH); // .fino/sessions.db
 * ```
 */
export const DEFAULT_SQLITE_PATH = join('.fino', 'sessions.db');

/**
 * A session store in one SQLite file: the embedded default. The file (and its folder)
 * is created on first use, in WAL mode, so readers never block the writer; several
 * processes on one machine can share it (writes take turns). A new file is created
 * readable by its owner only (0600), and its `-wal` and `-shm` companions get the
 * file's own permissions.
 *
 * Needs the optional `better-sqlite3` package (`npm install better-sqlite3@12`),
 * imported on first use; without it the first operation fails with `DRIVER_MISSING`.
 *
 * @example
 * ```ts
 * import { session, sqliteStore } from 'fino:ai/session';
 *
 * const store = sqliteStore(); // .fino/sessions.db, created on first use
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
  const busyTimeoutMs = checkDuration(
    'sqliteStore: busyTimeoutMs',
    options?.busyTimeoutMs ?? 10_000,
    'nonNegative',
  );
  return sqlStore(sqliteDriver(path, busyTimeoutMs));
}

/**
 * A session store in memory, for tests and single-process use: the same SQL engine as
 * {@link sqliteStore} on an in-memory database, so it behaves exactly like the others.
 * Everything is lost when the process ends.
 *
 * @example
 * ```ts
 * import { memoryStore, session } from 'fino:ai/session';
 *
 * const runs = session({ store: memoryStore() });
 * console.log(await runs.list()); // []
 * ```
 */
export function memoryStore(): Store {
  return sqlStore(sqliteDriver(':memory:', 0));
}

/** The part of better-sqlite3 the driver uses (its types stay out of fino's public ones). */
type Connection = import('better-sqlite3').Database;
type Statement = import('better-sqlite3').Statement;

/** Creates the database file, readable and writable by its owner only, unless it exists. */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  let fd: number;
  try {
    fd = openSync(path, 'wx', PRIVATE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  try {
    fchmodSync(fd, PRIVATE_MODE); // the umask may have taken bits from the mode asked for
  } finally {
    closeSync(fd);
  }
}

/**
 * Gives the WAL companions (`-wal`, `-shm`) the database file's own permissions,
 * whatever the umask: they hold the same data.
 */
function matchCompanionModes(path: string): void {
  const mode = statSync(path).mode & 0o777;
  for (const companion of [`${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(companion, mode);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw error;
    }
  }
}

/**
 * The SQL driver over one better-sqlite3 connection, opened (and better-sqlite3
 * imported) on first use. `importer` is a seam for tests.
 */
export function sqliteDriver(path: string, busyTimeoutMs: number, importer?: Importer): SqlDriver {
  let db: Connection | undefined;
  const statements = new Map<string, Statement>();
  const open = async (): Promise<Connection> => {
    if (db) return db;
    const store = path === ':memory:' ? 'memoryStore()' : 'sqliteStore()';
    const driver = (await importDriver('better-sqlite3', store, importer)) as {
      default: typeof import('better-sqlite3');
    };
    if (path !== ':memory:') createPrivately(path);
    const connection = new driver.default(path, { timeout: busyTimeoutMs });
    connection.pragma('journal_mode = WAL');
    connection.pragma('foreign_keys = ON');
    if (path !== ':memory:') matchCompanionModes(path);
    db = connection;
    return db;
  };
  const raw: SqlExecutor = {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = (await open()).prepare(sql);
        statements.set(sql, statement);
      }
      if (statement.reader) return statement.all(...params) as Row[];
      statement.run(...params);
      return [];
    },
    async exec(sql: string) {
      (await open()).exec(sql);
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
        const connection = await open();
        connection.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(raw);
          connection.exec('COMMIT');
          return result;
        } catch (error) {
          connection.exec('ROLLBACK');
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
