/**
 * The SQL layer the workflow stores share with the session stores: drivers, their
 * loading, and the migrations runner's conventions. One import point, so the workflow
 * stores follow that layer wherever it lives.
 */
export { importDriver } from '../../ai/session/driver-import.ts';
export { postgresDriver } from '../../ai/session/postgres-store.ts';
export type { SqlDriver, SqlExecutor } from '../../ai/session/sql-driver.ts';
export { sqliteDriver } from '../../ai/session/sqlite-store.ts';
