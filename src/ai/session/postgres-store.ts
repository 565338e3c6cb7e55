import { type Importer, importDriver } from './driver-import.ts';
import { SessionError } from './errors.ts';
import { decodeRows, encodeText } from './postgres-text.ts';
import type { SqlDriver, SqlExecutor } from './sql-driver.ts';
import { sqlStore } from './sql-store.ts';
import type { Store } from './types.ts';

/** Options of {@link postgresStore}. */
export interface PostgresStoreOptions {
  /** The schema holding fino's tables (default: the connection's search path, usually `public`). */
  schema?: string;
}

/** What the store needs of a `pg` query result. */
export interface PgResultLike {
  rows: unknown[];
}

/** What the store needs of a connection checked out of a `pg.Pool` (`pg.PoolClient` has it). */
export interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<PgResultLike>;
  release(): void;
}

/**
 * What the store needs of a `pg.Pool`: a `pg.Pool` is one. Declared here so that fino's
 * types do not depend on `pg`'s (which you need not have installed).
 */
export interface PgPoolLike {
  query(text: string, values?: unknown[]): Promise<PgResultLike>;
  connect(): Promise<PgClientLike>;
  end(): Promise<void>;
}

/** A pool the store opens itself from a URL: one that also takes an error listener. */
interface OwnedPool extends PgPoolLike {
  on(event: 'error', listener: (error: Error) => void): unknown;
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
  return sqlStore(postgresDriver(urlOrPool, schema));
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

/**
 * The SQL driver over a pool: the caller's, or one opened from a URL (and `pg` imported)
 * on first use, which `close()` ends. `importer` is a seam for tests.
 */
export function postgresDriver(
  urlOrPool: string | PgPoolLike,
  schema: string | undefined,
  importer?: Importer,
): SqlDriver {
  const owned = typeof urlOrPool === 'string';
  let opening: Promise<PgPoolLike> | undefined = owned ? undefined : Promise.resolve(urlOrPool);
  const pool = () => {
    opening ??= importDriver('pg', 'postgresStore()', importer)
      .then((driver) => {
        const { Pool } = (driver as { default: { Pool: new (config: object) => OwnedPool } })
          .default;
        const created = new Pool({ connectionString: urlOrPool, max: 10 });
        // An idle connection that breaks is dropped by the pool; without a listener it would crash the process.
        created.on('error', () => {});
        return created;
      })
      .catch((error) => {
        opening = undefined;
        throw error;
      });
    return opening;
  };
  const table = (name: string) => (schema ? `"${schema}".fino_${name}` : `fino_${name}`);
  return {
    ...executor(pool),
    dialect: 'postgres',
    table,
    nowMs: '(extract(epoch from clock_timestamp()) * 1000)::bigint',
    forUpdate: ' FOR UPDATE',
    forUpdateSkipLocked: ' FOR UPDATE SKIP LOCKED',
    migrationLock: `SELECT pg_advisory_xact_lock(hashtext('${table('migrations')}'))`,
    async transaction(work) {
      const client = await (await pool()).connect();
      try {
        await client.query('BEGIN');
        const result = await work(executor(async () => client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    isUniqueViolation: (error) => (error as { code?: unknown })?.code === '23505',
    close: async () => {
      if (owned && opening) {
        const opened = opening;
        opening = undefined;
        await (await opened).end();
      }
    },
  };
}
