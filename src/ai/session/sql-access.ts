/**
 * The SQL behind a store made by `sqliteStore()`, `memoryStore()` or `postgresStore()`,
 * for the stores of this module that keep more than runs in the same database (the MCP
 * task records). Not public: a `Store` stays an interface of methods.
 */
import type { SessionDriver } from './migrations.ts';
import type { Store } from './types.ts';

/** A store's database, and the promise that its schema is migrated. */
export interface SqlAccess {
  driver: SessionDriver;
  migrated(): Promise<void>;
}

const access = new WeakMap<Store, SqlAccess>();

/** Records the database behind `store` (called by the SQL store itself). */
export function registerSqlAccess(store: Store, sql: SqlAccess): void {
  access.set(store, sql);
}

/** The database behind `store`, or `undefined` for a store that is not one of fino's SQL stores. */
export function sqlAccessOf(store: Store): SqlAccess | undefined {
  return access.get(store);
}
