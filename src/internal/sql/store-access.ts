/**
 * The database behind one of fino's SQL stores, found from the store object: a module
 * that keeps more than runs in a store's database (MCP task records beside a session
 * store's runs) reaches the same driver without the store's public interface growing a
 * SQL door. The store registers itself when it is made; a store that is not one of
 * fino's SQL stores (a user's own, in memory) has none.
 */
import type { SqlDriver } from './driver.ts';

/** A store's database, and the promise that its schema is migrated. */
export interface StoreSql {
  driver: SqlDriver;
  migrated(): Promise<void>;
}

const registry = new WeakMap<object, StoreSql>();

/** Records the database behind `store` (called by the SQL store itself). */
export function registerStoreSql(store: object, sql: StoreSql): void {
  registry.set(store, sql);
}

/** The database behind `store`, or `undefined` for a store that is not one of fino's SQL stores. */
export function storeSqlOf(store: object): StoreSql | undefined {
  return registry.get(store);
}
