/**
 * The SQLite driver: `node:sqlite` where Node.js has it (22.13 and later: nothing to
 * install or compile), else the optional `better-sqlite3` package (Node.js 20).
 * Decision 101.
 */

import { randomUUID } from 'node:crypto';
import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { SqlDriver, SqlExecutor } from './driver.ts';
import { type Importer, importDriver, importModule } from './driver-import.ts';
import { localListen, localNotify } from './local-notify.ts';
import { retryTransient } from './retry.ts';

/** How {@link sqliteDriver} opens its database. */
export interface SqliteDriverOptions {
  /** How long to wait for another connection's write lock before failing, in milliseconds. */
  busyTimeoutMs: number;
  /** The store's constructor as users call it (`sqliteStore()`), named by `DRIVER_MISSING`. */
  store: string;
  /** The database as users know it ("the session database"), named by `UNAVAILABLE`. */
  database: string;
  /** Loads `node:sqlite` and `better-sqlite3` (a seam for tests; default `import()`). */
  importer?: Importer;
}

/** Owner read and write, nothing for anyone else: the file holds every run and decision. */
const PRIVATE_MODE = 0o600;

/** One connection, whichever package opened it. */
interface Connection {
  /** Runs one statement; its rows (none for a statement that returns none). */
  run(sql: string, params: readonly unknown[]): unknown[];
  exec(sql: string): void;
  close(): void;
}

/** The part of `node:sqlite` the driver uses (typed here: Node.js 20's types lack it). */
interface NodeSqlite {
  DatabaseSync: new (
    path: string,
  ) => {
    prepare(sql: string): {
      all(...params: unknown[]): unknown[];
      setReadBigInts(enabled: boolean): void;
    };
    exec(sql: string): void;
    close(): void;
  };
}

type BetterSqlite3 = { default: typeof import('better-sqlite3') };

/** `prepare`, with each statement prepared once per connection. */
function cached<Statement>(prepare: (sql: string) => Statement): (sql: string) => Statement {
  const statements = new Map<string, Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}

/** Opens `path` with `node:sqlite` when this Node.js has it, else with `better-sqlite3`. */
async function connect(path: string, options: SqliteDriverOptions): Promise<Connection> {
  const importer = options.importer ?? importModule;
  const builtin = (await importer('node:sqlite').catch(() => undefined)) as NodeSqlite | undefined;
  if (builtin?.DatabaseSync) {
    if (path !== ':memory:') createPrivately(path);
    const db = new builtin.DatabaseSync(path);
    const prepared = cached((sql) => {
      const statement = db.prepare(sql);
      statement.setReadBigInts(true);
      return statement;
    });
    return {
      run: (sql, params) =>
        prepared(sql)
          .all(...params)
          .map(withNumbers),
      exec: (sql) => db.exec(sql),
      close: () => db.close(),
    };
  }
  const driver = (await importDriver('better-sqlite3', options.store, importer)) as BetterSqlite3;
  if (path !== ':memory:') createPrivately(path);
  const db = new driver.default(path);
  const prepared = cached((sql) => db.prepare(sql));
  return {
    run(sql, params) {
      const statement = prepared(sql);
      if (statement.reader) return statement.all(...params);
      statement.run(...params);
      return [];
    },
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
  };
}

/**
 * A `node:sqlite` row with its integers as numbers. The statements read integers as
 * bigints, since `node:sqlite` otherwise throws for the whole query on one integer past
 * 2^53 (a tampered or far-off value): such a value becomes the nearest number, as
 * `better-sqlite3` reads it, and the row's reader decides whether it is valid.
 */
function withNumbers(row: unknown): unknown {
  const values = row as Record<string, unknown>;
  for (const key in values) {
    if (typeof values[key] === 'bigint') values[key] = Number(values[key]);
  }
  return row;
}

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
 * SQLite's extended result code of an error from either package: `better-sqlite3` names
 * it (`SQLITE_BUSY`), `node:sqlite` numbers it (`errcode`).
 */
function resultCode(error: unknown): { name?: string; number?: number } {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  return {
    name: typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined,
    number: typeof errcode === 'number' ? errcode : undefined,
  };
}

/** SQLITE_BUSY (5) or SQLITE_LOCKED (6), with any extended code: another connection holds a lock. */
export function isSqliteBusy(error: unknown): boolean {
  const { name, number } = resultCode(error);
  return (
    /^SQLITE_(BUSY|LOCKED)(_|$)/.test(name ?? '') ||
    (number !== undefined && [5, 6].includes(number & 0xff))
  );
}

/** SQLITE_CONSTRAINT_PRIMARYKEY (1555) or SQLITE_CONSTRAINT_UNIQUE (2067). */
function isUniqueViolation(error: unknown): boolean {
  const { name, number } = resultCode(error);
  return (
    /^SQLITE_CONSTRAINT_(PRIMARYKEY|UNIQUE)$/.test(name ?? '') || number === 1555 || number === 2067
  );
}

/**
 * The SQL driver over one SQLite connection to `path` (`':memory:'` for an in-memory
 * database), opened on first use: the file and its folder are created (0600), in WAL
 * mode, with foreign keys on. Operations take turns on the connection; a busy database
 * is waited for up to `busyTimeoutMs` (SQLite's busy handler, then retries), then is
 * `UNAVAILABLE`.
 */
export function sqliteDriver(path: string, options: SqliteDriverOptions): SqlDriver {
  let db: Connection | undefined;
  const open = async (): Promise<Connection> => {
    if (db) return db;
    const connection = await connect(path, options);
    try {
      connection.exec(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs)}`);
      connection.exec('PRAGMA journal_mode = WAL');
      connection.exec('PRAGMA foreign_keys = ON');
      if (path !== ':memory:') matchCompanionModes(path);
    } catch (error) {
      connection.close();
      throw error;
    }
    db = connection;
    return db;
  };
  const raw: SqlExecutor = {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      return (await open()).run(sql, params) as Row[];
    },
    async exec(sql: string) {
      (await open()).exec(sql);
    },
  };
  const retried = <T>(attempt: () => Promise<T>) =>
    retryTransient(attempt, isSqliteBusy, { budgetMs: options.busyTimeoutMs }, options.database);
  // One connection: operations take turns, so no statement lands inside another's transaction.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work);
    queue = result.catch(() => {});
    return result;
  };
  // This process's notifications of this database: a file's by its path, a memory database's its own.
  const place = path === ':memory:' ? `:memory:${randomUUID()}` : resolve(path);
  return {
    dialect: 'sqlite',
    table: (name) => `fino_${name}`,
    nowMs: `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`,
    forUpdate: '',
    forUpdateSkipLocked: '',
    query: (sql, params) => serially(() => retried(() => raw.query(sql, params))),
    exec: (sql) => serially(() => retried(() => raw.exec(sql))),
    transaction: (work) =>
      serially(() =>
        retried(async () => {
          const connection = await open();
          connection.exec('BEGIN IMMEDIATE');
          try {
            const result = await work(raw);
            connection.exec('COMMIT');
            return result;
          } catch (error) {
            try {
              connection.exec('ROLLBACK');
            } catch {
              // SQLite already rolled back (it does on some errors): the original error is the news
            }
            throw error;
          }
        }),
      ),
    isUniqueViolation,
    listen: (channel, onNotify) => localListen(`${place}\n${channel}`, onNotify),
    notify: (channel, payload) => localNotify(`${place}\n${channel}`, payload),
    close: () =>
      serially(async () => {
        db?.close();
        db = undefined;
      }),
  };
}
