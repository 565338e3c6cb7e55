/**
 * The PostgreSQL driver, over a `pg.Pool` (the caller's, or one it opens from a URL with
 * the optional `pg` package). A connection that breaks — a server restart, a failover,
 * `pg_terminate_backend` — never crashes the process: every checked-out connection has an
 * `error` listener while the driver holds it, and a broken one is released with its
 * error, so the pool discards it instead of handing it out again. Transient failures are
 * retried (see `retry.ts`). Decision 102.
 */
import type { SqlDriver, SqlExecutor, TransactionOptions } from './driver.ts';
import { type Importer, importDriver } from './driver-import.ts';
import { SqlFailure } from './errors.ts';
import { listenChannel } from './postgres-listen.ts';
import { openPool, type PostgresTimeouts } from './postgres-pool.ts';
import { sessionLock } from './postgres-session-lock.ts';
import { decodeRows, encodeText } from './postgres-text.ts';
import { type RetryPolicy, retryTransient } from './retry.ts';

/** What the store needs of a `pg` query result. */
export interface PgResultLike {
  rows: unknown[];
}

/** What the store needs of a connection checked out of a `pg.Pool` (`pg.PoolClient` has it). */
export interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<PgResultLike>;
  /** Returns the connection to the pool; with an error, the pool discards it. */
  release(error?: Error): void;
  on?(event: 'error', listener: (error: Error) => void): unknown;
  removeListener?(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * What the store needs of a `pg.Pool`: a `pg.Pool` is one. Declared here so that fino's
 * types do not depend on `pg`'s (which you need not have installed).
 */
export interface PgPoolLike {
  query(text: string, values?: unknown[]): Promise<PgResultLike>;
  connect(): Promise<PgClientLike>;
  end(): Promise<void>;
  on?(event: 'error', listener: (error: Error) => void): unknown;
  on?(event: 'acquire', listener: (client: PgClientLike) => void): unknown;
}

/** How {@link postgresDriver} reaches its database. */
export interface PostgresDriverOptions {
  /** The schema holding the tables (default: the connection's search path). */
  schema?: string;
  /** The store's constructor as users call it (`postgresStore()`), named by `DRIVER_MISSING`. */
  store: string;
  /** The database as users know it ("the session database"), named by `UNAVAILABLE`. */
  database: string;
  /** How long transient failures are retried (default: 30 s, waits from 100 ms to 2 s). */
  retry?: RetryPolicy;
  /** How long the connections of a pool opened from a URL wait on the server (see `postgres-pool.ts`). */
  timeouts?: PostgresTimeouts;
  /** Loads `pg` (a seam for tests; default `import()`). */
  importer?: Importer;
}

/** The default retry: a restart or failover of PostgreSQL usually takes seconds. */
const DEFAULT_RETRY: RetryPolicy = { budgetMs: 30_000, firstDelayMs: 100, maxDelayMs: 2_000 };

/**
 * SQLSTATEs of failures that another attempt may not meet: connection exceptions (class
 * 08), serialization failure and deadlock (the transaction was rolled back), the server
 * shutting down or starting (57P01–57P03), too many connections.
 */
const TRANSIENT_STATE = /^(08[0-9A-Z]{3}|40001|40P01|57P0[123]|53300)$/;
const TRANSIENT_SOCKET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** What `pg` says when its `query_timeout` passes. */
const QUERY_TIMEOUT = 'Query read timeout';
/** What `pg` says, without a code, when a connection ends under it or a server stops answering. */
const TRANSIENT_MESSAGE = new RegExp(
  `Connection terminated|not queryable|Connection ended unexpectedly|timeout exceeded when trying to connect|${QUERY_TIMEOUT}`,
);

/** Whether `error` is `pg`'s `query_timeout` giving up on a statement (the server stopped answering). */
const isQueryTimeout = (error: unknown) => (error as Error | undefined)?.message === QUERY_TIMEOUT;

/** Whether `error` is a failure of the connection or a conflict that a new attempt may not meet. */
export function isTransientPostgres(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (TRANSIENT_STATE.test(code) || TRANSIENT_SOCKET.has(code))) {
    return true;
  }
  return typeof message === 'string' && TRANSIENT_MESSAGE.test(message);
}

/** Rewrites `?` placeholders to PostgreSQL's `$1, $2, …`. */
const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

const executor = (db: () => Promise<PgPoolLike | PgClientLike>): SqlExecutor => ({
  async query<Row>(sql: string, params: readonly unknown[] = []) {
    const result = await (await db()).query(numbered(sql), params.map(encodeText));
    return decodeRows(result.rows as Row[]);
  },
  async exec(sql: string) {
    await (await db()).query(sql);
  },
});

const ignore = () => {};
/** The connections that have their lasting `error` listener (see `pool` in {@link postgresDriver}). */
const guarded = new WeakSet<PgClientLike>();

/**
 * The SQL driver over a pool: the caller's, or one opened from a URL (and `pg` imported)
 * on first use, which `close()` ends.
 */
export function postgresDriver(
  urlOrPool: string | PgPoolLike,
  options: PostgresDriverOptions,
): SqlDriver {
  const { schema, database } = options;
  const owned = typeof urlOrPool === 'string';
  let opening: Promise<PgPoolLike> | undefined;
  const pool = () => {
    opening ??= (
      owned
        ? importDriver('pg', options.store, options.importer).then((driver) => {
            const { Pool } = (driver as { default: { Pool: new (config: object) => PgPoolLike } })
              .default;
            return openPool(Pool, urlOrPool, options.timeouts, isTransientPostgres);
          })
        : Promise.resolve(urlOrPool)
    )
      .then((opened) => {
        // An `error` event without a listener ends the process. A connection that breaks
        // while idle (a restart) makes the pool emit one; the pool drops the connection itself.
        opened.on?.('error', ignore);
        // A connection handed out can break before its taker's code runs at all: the
        // server's message ending it may arrive in the same packet as the one that made it
        // ready, and is handled in the same tick. So every connection gets a listener as
        // the pool hands it out, for good; who holds it learns of the failure from its queries.
        opened.on?.('acquire', (client) => {
          if (guarded.has(client)) return;
          guarded.add(client);
          client.on?.('error', ignore);
        });
        return opened;
      })
      .catch((error) => {
        opening = undefined;
        throw error;
      });
    return opening;
  };
  const retried = <T>(attempt: () => Promise<T>) =>
    retryTransient(attempt, isTransientPostgres, options.retry ?? DEFAULT_RETRY, database);
  const direct = executor(pool);
  const table = (name: string) => (schema ? `"${schema}".fino_${name}` : `fino_${name}`);

  /** One attempt at a transaction on a connection of its own. */
  const attemptTransaction = async <T>(
    work: (tx: SqlExecutor) => Promise<T>,
    { idempotent = false }: TransactionOptions = {},
  ): Promise<T> => {
    const client = await (await pool()).connect();
    let broken: Error | undefined;
    const onError = (error: Error) => {
      broken ??= error;
    };
    client.on?.('error', onError);
    let committing = false;
    try {
      await client.query('BEGIN');
      const result = await work(executor(async () => client));
      committing = true;
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (committing && isTransientPostgres(error)) {
        broken ??= error as Error;
        // Idempotent work is retried: its next run finds whether this commit landed.
        if (idempotent) throw error;
        // Not retried: the server may have committed before the connection failed.
        throw new SqlFailure(
          'UNAVAILABLE',
          `${database} is unavailable: the connection failed while committing, so whether the change was applied is unknown: ${(error as Error).message}`,
          { cause: error },
        );
      }
      // A statement that timed out still occupies the connection: a ROLLBACK would wait behind it.
      if (isQueryTimeout(error)) broken ??= error as Error;
      if (!broken) {
        await client.query('ROLLBACK').catch((rollbackFailed: Error) => {
          broken ??= rollbackFailed;
        });
      }
      throw error;
    } finally {
      // A broken connection keeps the listener: it may still emit `error` while the pool ends it.
      if (!broken) client.removeListener?.('error', onError);
      client.release(broken);
    }
  };

  return {
    dialect: 'postgres',
    table,
    nowMs: '(extract(epoch from clock_timestamp()) * 1000)::bigint',
    forUpdate: ' FOR UPDATE',
    forUpdateSkipLocked: ' FOR UPDATE SKIP LOCKED',
    lockStatement: (key) => `SELECT pg_advisory_xact_lock(hashtext('${key.replace(/'/g, "''")}'))`,
    query: (sql, params) => retried(() => direct.query(sql, params)),
    exec: (sql) => retried(() => direct.exec(sql)),
    transaction: (work, options) => retried(() => attemptTransaction(work, options)),
    isUniqueViolation: (error) => (error as { code?: unknown })?.code === '23505',
    listen: (channel, onNotify) => listenChannel(pool, channel, onNotify),
    sessionLock: (key, onLost) => retried(() => sessionLock(pool, key, onLost)),
    close: async () => {
      if (owned && opening) {
        const opened = opening;
        opening = undefined;
        await (await opened).end();
      }
    },
  };
}
