import { join } from 'node:path';
import {
  memoryStoreDriver,
  type SqliteOptions,
  sqliteStoreDriver,
} from '../../../internal/durable/index.ts';
import type { Store } from '../types.ts';
import { sqlStore } from './sql-store.ts';

/**
 * Options of {@link sqliteStore}: `busyTimeoutMs`, how long to wait for another process's
 * write lock.
 */
export interface SqliteStoreOptions extends SqliteOptions {}

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
 * Uses Node.js's built-in `node:sqlite` (Node.js 22.13 and later): nothing to install.
 * On Node.js 20 it needs the optional `better-sqlite3` package (`npm install
 * better-sqlite3@12`), imported on first use; without it the first operation fails
 * with `DRIVER_MISSING`.
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
  return sqlStore(
    sqliteStoreDriver('sqliteStore', path, options, (file) => `the session database ${file}`),
  );
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
  return sqlStore(memoryStoreDriver('memoryStore', 'the memory store'));
}
