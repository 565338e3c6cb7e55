/**
 * The shared SQL layer of fino's durable stores: see `driver.ts` for what it is and how a
 * store is built on it. Private to the package (never an export).
 */
export type { Dialect, SqlDriver, SqlExecutor } from './driver.ts';
export { type DriverPackage, type Importer, importDriver } from './driver-import.ts';
export { SqlFailure, type SqlFailureCode } from './errors.ts';
export { mapSqlFailures } from './map-failures.ts';
export { type Migration, migrate, type Schema, versionsTableSql } from './migrate.ts';
export {
  isTransientPostgres,
  type PgClientLike,
  type PgPoolLike,
  type PgResultLike,
  type PostgresDriverOptions,
  postgresDriver,
} from './postgres-driver.ts';
export { decodeRows, decodeText, encodeText } from './postgres-text.ts';
export { type RetryPolicy, retryTransient } from './retry.ts';
export { isSqliteBusy, type SqliteDriverOptions, sqliteDriver } from './sqlite-driver.ts';
export { registerStoreSql, type StoreSql, storeSqlOf } from './store-access.ts';
