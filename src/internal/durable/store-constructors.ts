/**
 * The shared part of every durable store's constructor (`sqliteStore`,
 * `sqliteWorkflowStore`, `memoryStore`, `memoryWorkflowStore`, `postgresStore`,
 * `postgresWorkflowStore`): checking a file path, a busy timeout, a PostgreSQL URL or
 * pool and a schema name, and opening the driver the store is built on. Each message
 * names the constructor.
 */
import { typeName } from '../describe-value.ts';
import { checkDuration } from '../duration.ts';
import {
  multiHostTarget,
  type PgPoolLike,
  type PostgresTimeouts,
  postgresDriver,
  type SqlDriver,
  sqliteDriver,
} from '../sql/index.ts';

/**
 * The options every SQLite store takes (`sqliteStore`, `sqliteWorkflowStore`; each
 * module's public options type extends this one), checked by {@link sqliteArguments}.
 */
export interface SqliteOptions {
  /**
   * How long to wait for another process's write lock, in milliseconds (default 10 000;
   * 0 fails at once; at most 2^31 − 1, else a `RangeError` at construction). Past it, the
   * operation fails with the store's error (`SessionError`, `WorkflowError`) code
   * `STORE_UNAVAILABLE`.
   */
  busyTimeoutMs?: number;
}

/**
 * The options every PostgreSQL store takes (`postgresStore`, `postgresWorkflowStore`;
 * each module's public options type extends this one), checked by {@link postgresArguments}.
 */
export interface PostgresOptions {
  /**
   * How long to wait for a new connection to the server (connecting, TLS,
   * authentication) or for a free one of the pool, in milliseconds (default 10 000).
   * Only for a URL: a `pg.Pool` you pass has its own settings (`connectionTimeoutMillis`).
   */
  connectTimeoutMs?: number;
  /**
   * How long one statement may wait for the server's answer, in milliseconds (default
   * 30 000). Past it the connection is discarded and the operation retried, so a server
   * cut off without resetting connections (a network partition) is noticed in bounded
   * time. Only for a URL (`query_timeout` of a `pg.Pool` you pass).
   */
  queryTimeoutMs?: number;
  /**
   * After how long an idle connection sends its first TCP keepalive probe, in
   * milliseconds (default 10 000). Only for a URL (`keepAlive` of a `pg.Pool` you pass).
   */
  keepAliveDelayMs?: number;
  /**
   * The PostgreSQL schema holding the store's tables, created beforehand (default: the
   * connection's search path, usually `public`). A plain identifier (letters, digits and
   * `_`, not starting with a digit, at most 63 characters), else the store's error code
   * `INVALID_ARGUMENT` at construction.
   */
  schema?: string;
}

/** A SQLite store's file and busy timeout (default 10 000 ms), checked. */
export function sqliteArguments(
  store: string,
  path: unknown,
  options: SqliteOptions | undefined,
): { path: string; busyTimeoutMs: number } {
  if (typeof path !== 'string' || path === '') {
    throw new TypeError(`${store}(path): expected a file path, received ${String(path)}`);
  }
  const busyTimeoutMs = checkDuration(
    `${store}: busyTimeoutMs`,
    options?.busyTimeoutMs ?? 10_000,
    'nonNegative',
  );
  return { path, busyTimeoutMs };
}

const isPool = (value: unknown): value is PgPoolLike =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as PgPoolLike).query === 'function' &&
  typeof (value as PgPoolLike).connect === 'function' &&
  typeof (value as PgPoolLike).end === 'function';

/** The timeout options of a PostgreSQL store, checked (a `RangeError` names one out of range). */
function postgresTimeouts(store: string, options: PostgresOptions | undefined): PostgresTimeouts {
  const timeouts: PostgresTimeouts = {};
  for (const name of ['connectTimeoutMs', 'queryTimeoutMs', 'keepAliveDelayMs'] as const) {
    const value = checkDuration(`${store}: ${name}`, options?.[name]);
    if (value !== undefined) timeouts[name] = value;
  }
  return timeouts;
}

/**
 * A URL's servers checked: `invalid(message)` says what a multi-host URL (or its
 * `target_session_attrs`) has wrong.
 */
function checkUrl(store: string, url: string, invalid: (message: string) => Error): void {
  try {
    multiHostTarget(url);
  } catch (error) {
    throw invalid(`${store}(urlOrPool): ${(error as Error).message}`);
  }
}

/**
 * A PostgreSQL store's URL or pool and schema name, checked: a `TypeError` for what is
 * neither, `invalid(message)` (the module's `INVALID_ARGUMENT`) for a schema that is not
 * a plain identifier or a multi-host URL it cannot use.
 */
export function postgresArguments(
  store: string,
  urlOrPool: unknown,
  schema: unknown,
  invalid: (message: string) => Error,
): { urlOrPool: string | PgPoolLike; schema: string | undefined } {
  if (typeof urlOrPool !== 'string' && !isPool(urlOrPool)) {
    const type = typeName(urlOrPool);
    throw new TypeError(
      `${store}(urlOrPool): expected a postgres:// URL or a pg.Pool, received ${type === 'object' ? 'an object that is not a pg.Pool' : type}`,
    );
  }
  if (typeof urlOrPool === 'string') checkUrl(store, urlOrPool, invalid);
  if (
    schema !== undefined &&
    (typeof schema !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema))
  ) {
    throw invalid(
      `${store}: schema: expected a plain identifier (letters, digits, _), received ${JSON.stringify(schema)}`,
    );
  }
  return { urlOrPool, schema };
}

/** The in-memory SQLite database of a memory store (`store` names it, as `memoryStore()`). */
export const memoryStoreDriver = (store: string, database: string): SqlDriver =>
  sqliteDriver(':memory:', { busyTimeoutMs: 0, store: `${store}()`, database });

/**
 * The SQLite file of a store, its arguments checked; `database` names it in messages
 * (`the session database .fino/sessions.db`).
 */
export function sqliteStoreDriver(
  store: string,
  path: unknown,
  options: SqliteOptions | undefined,
  database: (path: string) => string,
): SqlDriver {
  const checked = sqliteArguments(store, path, options);
  return sqliteDriver(checked.path, {
    busyTimeoutMs: checked.busyTimeoutMs,
    store: `${store}()`,
    database: database(checked.path),
  });
}

/**
 * The PostgreSQL database of a store, its arguments checked (see {@link postgresArguments};
 * timeouts with a pool of the caller's are `invalid`: the pool has its own); `database`
 * names it in messages.
 */
export function postgresStoreDriver(
  store: string,
  urlOrPool: unknown,
  options: PostgresOptions | undefined,
  invalid: (message: string) => Error,
  database: string,
): SqlDriver {
  const checked = postgresArguments(store, urlOrPool, options?.schema, invalid);
  const timeouts = postgresTimeouts(store, options);
  if (typeof checked.urlOrPool !== 'string' && Object.keys(timeouts).length > 0) {
    throw invalid(
      `${store}: the timeout options (${Object.keys(timeouts).join(', ')}) are for the pool the store opens from a URL; a pg.Pool you pass has its own (connectionTimeoutMillis, query_timeout, keepAlive)`,
    );
  }
  return postgresDriver(checked.urlOrPool, {
    ...(checked.schema === undefined ? {} : { schema: checked.schema }),
    store: `${store}()`,
    database,
    timeouts,
  });
}
