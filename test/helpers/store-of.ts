/**
 * The session store a test's processes share, opened from what a child process is told:
 * a SQLite file's path, or a `postgres://` URL with the schema of the test. Free of
 * vitest, so child processes (fixtures) open their store with it too.
 *
 * @example
 * ```ts
 * const store = storeOf({ db: '/tmp/fino-x/shared-0.db' }); // sqliteStore
 * const other = storeOf({ db: server.url, schema }); // postgresStore
 * ```
 */
import { postgresStore, type Store, sqliteStore } from '../../src/ai/session/index.ts';

/** Where a shared store lives: a SQLite path, or a PostgreSQL URL and schema. */
export interface StoreAddress {
  db: string;
  schema?: string;
}

/** Opens the store at `address` (the caller closes it). */
export function storeOf({ db, schema }: StoreAddress): Store {
  return db.startsWith('postgres://') ? postgresStore(db, { schema }) : sqliteStore(db);
}
