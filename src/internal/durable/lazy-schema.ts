/**
 * A store's lazy migrations: its schema is brought up to date before its first
 * operation, once, and tried again by the next operation when that failed.
 */
import { migrate, type Schema, type SqlDriver } from '../sql/index.ts';

/**
 * The function each operation of a store awaits first: it migrates `driver` to `schema`
 * on the first call, and afterwards returns the same promise — unless that failed (the
 * database was down), in which case the next call tries again.
 */
export function lazySchema<Table extends string>(
  driver: SqlDriver<Table>,
  schema: Schema<Table>,
): () => Promise<void> {
  let ready: Promise<void> | undefined;
  return () => {
    ready ??= migrate(driver, schema).catch((error) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
}
