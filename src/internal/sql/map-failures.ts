import type { SqlDriver } from './driver.ts';
import { SqlFailure } from './errors.ts';

/**
 * `driver`, with every {@link SqlFailure} its operations throw turned into the store's
 * own error by `toStoreError`: the one place a store maps the layer's failures, for the
 * store's code and for anything else that reaches its database through this driver.
 * Errors thrown by a transaction's own `work` pass through as they are.
 */
export function mapSqlFailures<Table extends string>(
  driver: SqlDriver<Table>,
  toStoreError: (failure: SqlFailure) => Error,
): SqlDriver<Table> {
  const mapped = <T>(operation: Promise<T>): Promise<T> =>
    operation.catch((error: unknown) => {
      throw error instanceof SqlFailure ? toStoreError(error) : error;
    });
  return {
    ...driver,
    table: (name) => driver.table(name),
    query: (sql, params) => mapped(driver.query(sql, params)),
    exec: (sql) => mapped(driver.exec(sql)),
    transaction: (work, options) => mapped(driver.transaction(work, options)),
    isUniqueViolation: (error) => driver.isUniqueViolation(error),
    close: () => mapped(driver.close()),
    ...(driver.sessionLock
      ? { sessionLock: (key, onLost) => mapped(driver.sessionLock!(key, onLost)) }
      : {}),
  };
}
