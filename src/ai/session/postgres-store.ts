import pg from 'pg';
import { SessionError } from './errors.ts';
import type { SqlDriver, SqlExecutor } from './sql-driver.ts';
import { sqlStore } from './sql-store.ts';
import type { Store } from './types.ts';

/** Options of {@link postgresStore}. */
export interface PostgresStoreOptions {
  /** The schema holding fino's tables (default: the connection's search path, usually `public`). */
  schema?: string;
}

/**
 * A session store in PostgreSQL, for several workers on several machines: decisions and
 * leases are row-locked, and workers claim runs with `FOR UPDATE SKIP LOCKED`, so no run
 * is ever driven in two places at once. Lease times use the database's clock.
 *
 * Pass a connection URL (the store owns its pool and `close()` ends it) or your own
 * `pg.Pool` (left open by `close()`). Tables are created on first use.
 *
 * @example
 * ```ts
 * import { postgresStore, session } from 'fino/ai/session';
 *
 * const store = postgresStore(process.env.FINO_DATABASE_URL!);
 * const waiting = await session({ store }).list({ status: 'suspended' });
 * console.log(waiting.length);
 * await store.close();
 * ```
 */
export function postgresStore(
  urlOrPool: string | pg.Pool,
  options: PostgresStoreOptions = {},
): Store {
  const owned = typeof urlOrPool === 'string';
  if (!owned && !(urlOrPool instanceof pg.Pool)) {
    throw new TypeError('postgresStore(urlOrPool): expected a postgres:// URL or a pg.Pool');
  }
  const schema = options.schema;
  if (schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new SessionError(
      'INVALID_ARGUMENT',
      `postgresStore: schema must be a plain identifier (letters, digits, _), received ${JSON.stringify(schema)}`,
    );
  }
  const pool = owned ? new pg.Pool({ connectionString: urlOrPool, max: 10 }) : urlOrPool;
  // An idle connection that breaks is dropped by the pool; without a listener it would crash the process.
  if (owned) pool.on('error', () => {});
  return sqlStore(postgresDriver(pool, owned, schema));
}

/** Rewrites `?` placeholders to PostgreSQL's `$1, $2, …`. */
const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

const executor = (db: pg.Pool | pg.PoolClient): SqlExecutor => ({
  async query<Row>(sql: string, params: readonly unknown[] = []) {
    const result = await db.query(numbered(sql), params as unknown[]);
    return result.rows as Row[];
  },
  async exec(sql: string) {
    await db.query(sql);
  },
});

function postgresDriver(pool: pg.Pool, owned: boolean, schema: string | undefined): SqlDriver {
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
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(executor(client));
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
      if (owned) await pool.end();
    },
  };
}
