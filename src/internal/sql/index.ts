/**
 * `internal/sql`: the shared SQL layer of fino's durable stores: see `driver.ts` for what
 * it is and how a store is built on it. Private to the package (never an export). The
 * files: the driver contract (`driver.ts`) and the two drivers (`sqlite-driver.ts`,
 * `postgres-driver.ts` with `postgres-text.ts`, the pool it opens from a URL with its
 * timeouts `postgres-pool.ts`, and for a multi-host URL `postgres-url.ts` and
 * `postgres-hosts-pool.ts`; both loading their package with
 * `driver-import.ts`); errors (`errors.ts`, `map-failures.ts`) and retries (`retry.ts`);
 * schema versions (`migrate.ts`); a store's database found from the store object
 * (`store-access.ts`).
 *
 * May import: Node's built-ins, and the database packages (`pg`, `better-sqlite3`) only
 * by `import()` at run time; nothing of the modules, and nothing else of `src/internal/`.
 * The stores (`ai/session`, `workflow`, `ai/mcp`'s tasks) import it through this file.
 */
export type { Dialect, SqlDriver, SqlExecutor, TransactionOptions } from './driver.ts';
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
export type { PostgresTimeouts } from './postgres-pool.ts';
export { decodeRows, decodeText, encodeText } from './postgres-text.ts';
export { multiHostTarget } from './postgres-url.ts';
export { type RetryPolicy, retryTransient } from './retry.ts';
export { isSqliteBusy, type SqliteDriverOptions, sqliteDriver } from './sqlite-driver.ts';
export { registerStoreSql, type StoreSql, storeSqlOf } from './store-access.ts';
