import { type PgPoolLike, postgresDriver } from '../../internal/sql/index.ts';
import { SessionError } from './errors.ts';
import { sqlStore } from './sql-store.ts';
import type { Store } from './types.ts';

/** Options of {@link postgresStore}. */
export interface PostgresStoreOptions {
  /** The schema holding fino's tables (default: the connection's search path, usually `public`). */
  schema?: string;
}

const isPool = (value: unknown): value is PgPoolLike =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as PgPoolLike).query === 'function' &&
  typeof (value as PgPoolLike).connect === 'function' &&
  typeof (value as PgPoolLike).end === 'function';

const describe = (value: unknown): string =>
  value === null
    ? 'null'
    : typeof value === 'object'
      ? 'an object that is not a pg.Pool'
      : typeof value;

/**
 * A session store in PostgreSQL, for several workers on several machines: decisions and
 * leases are row-locked, and workers claim runs with `FOR UPDATE SKIP LOCKED`, so no run
 * is ever driven in two places at once. Lease times use the database's clock.
 *
 * Pass a connection URL (the store owns its pool and `close()` ends it) or your own
 * `pg.Pool` (left open by `close()`). Tables are created on first use. With a URL, the
 * optional `pg` package (`npm install pg`) is imported on first use; without it the
 * first operation fails with `DRIVER_MISSING`.
 *
 * A restart or failover of the server does not crash the process: broken connections are
 * discarded, and an operation that meets a lost connection, a serialization failure or a
 * server starting up is retried with backoff for up to 30 seconds before it fails with
 * `SessionError` code `STORE_UNAVAILABLE`. A pool you pass gets listeners for this: an
 * `error` listener on the pool, and one on each connection as the pool hands it out (the
 * pool discards broken connections itself; the store learns of the failure from its queries).
 *
 * @example
 * ```ts
 * import { postgresStore, session } from 'fino:ai/session';
 *
 * const store = postgresStore(process.env.FINO_DATABASE_URL!);
 * const waiting = await session({ store }).list({ status: 'suspended' });
 * console.log(waiting.length);
 * await store.close();
 * ```
 */
export function postgresStore(
  urlOrPool: string | PgPoolLike,
  options: PostgresStoreOptions = {},
): Store {
  if (typeof urlOrPool !== 'string' && !isPool(urlOrPool)) {
    throw new TypeError(
      `postgresStore(urlOrPool): expected a postgres:// URL or a pg.Pool, received ${describe(urlOrPool)}`,
    );
  }
  const schema = options?.schema;
  if (schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new SessionError(
      'INVALID_ARGUMENT',
      `postgresStore: schema: expected a plain identifier (letters, digits, _), received ${JSON.stringify(schema)}`,
    );
  }
  return sqlStore(
    postgresDriver(urlOrPool, {
      schema,
      store: 'postgresStore()',
      database: 'the session database',
    }),
  );
}

export type { PgClientLike, PgPoolLike, PgResultLike } from '../../internal/sql/index.ts';
