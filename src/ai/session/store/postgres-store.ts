import { type PostgresOptions, postgresStoreDriver } from '../../../internal/durable/index.ts';
import type { PgPoolLike } from '../../../internal/sql/index.ts';
import { SessionError } from '../errors.ts';
import type { Store } from '../types.ts';
import { sqlStore } from './sql-store.ts';

/** Options of {@link postgresStore}: `schema`, the PostgreSQL schema holding fino's tables. */
export interface PostgresStoreOptions extends PostgresOptions {}

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
  return sqlStore(
    postgresStoreDriver(
      'postgresStore',
      urlOrPool,
      options,
      (message) => new SessionError('INVALID_ARGUMENT', message),
      'the session database',
    ),
  );
}

export type { PgClientLike, PgPoolLike, PgResultLike } from '../../../internal/sql/index.ts';
