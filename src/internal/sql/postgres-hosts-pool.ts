/**
 * One pool over several PostgreSQL servers, as libpq connects to a multi-host URL: a new
 * connection goes to the first server, in the URL's order, that accepts it and fits the
 * URL's `target_session_attrs` (`read-write`: `SHOW transaction_read_only` is `off`;
 * `primary`: `pg_is_in_recovery()` is false). The server that fitted is tried first
 * for the next connections; once it fails, the next connection tries the list again
 * from the start — so after a failover the store finds the promoted standby by itself.
 * Each server has a `pg.Pool` of its own, opened when first tried. Decision 173.
 */
import type { PgClientLike, PgPoolLike, PgResultLike } from './postgres-driver.ts';
import type { MultiHostTarget } from './postgres-url.ts';

type PoolEvent = Parameters<NonNullable<PgPoolLike['on']>>;
/** Why one server gave no connection: it failed, or it answered but does not fit (`misfit`). */
type Failure = { label: string; error: unknown; misfit: boolean };

/** The query that tells whether a connection fits a target, and the answer that does. */
const CHECKS = {
  'read-write': { sql: 'SHOW transaction_read_only', fits: { transaction_read_only: 'off' } },
  primary: { sql: 'SELECT pg_is_in_recovery()::text AS standby', fits: { standby: 'false' } },
} as const;

/**
 * The pool over `target.servers`: `open(url)` opens one server's pool, `isTransient`
 * tells a connection failure another attempt may not meet from one it will (a wrong
 * password). When no server fits, `connect()` fails with SQLSTATE `08001` (a transient
 * failure: a failover may be under way) naming each server and why it did not fit.
 */
export function multiHostPool(
  target: MultiHostTarget,
  open: (url: string) => PgPoolLike,
  isTransient: (error: unknown) => boolean,
): PgPoolLike {
  const { servers } = target;
  const pools: (PgPoolLike | undefined)[] = servers.map(() => undefined);
  const listeners: PoolEvent[] = [];
  /** Connections known to fit: a primary cannot become a standby without a restart. */
  const fitting = new WeakSet<PgClientLike>();
  let preferred: number | undefined;

  const poolOf = (index: number): PgPoolLike => {
    let pool = pools[index];
    if (!pool) {
      pool = open(servers[index].url);
      for (const [event, listener] of listeners) pool.on?.(event as 'error', listener as never);
      pools[index] = pool;
    }
    return pool;
  };

  /** Why `client` does not fit the target, or `undefined` when it does. */
  const misfit = async (client: PgClientLike): Promise<string | undefined> => {
    if (target.target === 'any' || fitting.has(client)) return undefined;
    const check = CHECKS[target.target];
    const { rows } = await client.query(check.sql);
    const [[column, expected]] = Object.entries(check.fits);
    const answer = (rows[0] as Record<string, unknown> | undefined)?.[column];
    if (answer === expected) {
      fitting.add(client);
      return undefined;
    }
    return `${check.sql} answered ${String(answer)}`;
  };

  /** A connection to `servers[index]` that fits, or why there is none. */
  const tryServer = async (index: number): Promise<PgClientLike | Failure> => {
    const { label } = servers[index];
    let client: PgClientLike;
    try {
      client = await poolOf(index).connect();
    } catch (error) {
      return { label, error, misfit: false };
    }
    try {
      const reason = await misfit(client);
      if (reason === undefined) return client;
      client.release();
      return { label, error: new Error(reason), misfit: true };
    } catch (error) {
      client.release(error as Error);
      return { label, error, misfit: false };
    }
  };

  const connect = async (): Promise<PgClientLike> => {
    const order = servers.map((_, i) => i);
    if (preferred !== undefined) order.unshift(...order.splice(preferred, 1));
    const failures: Failure[] = [];
    for (const index of order) {
      const tried = await tryServer(index);
      if (!('misfit' in tried)) {
        preferred = index;
        return tried;
      }
      if (index === preferred) preferred = undefined;
      failures.push(tried);
    }
    throw noServer(target, failures, isTransient);
  };

  return {
    connect,
    async query(text: string, values?: unknown[]): Promise<PgResultLike> {
      const client = await connect();
      try {
        const result = await client.query(text, values);
        client.release();
        return result;
      } catch (error) {
        client.release(error as Error); // as pg.Pool's query does: the connection is discarded
        throw error;
      }
    },
    async end() {
      const opened = pools.filter((pool) => pool !== undefined);
      pools.fill(undefined);
      await Promise.all(opened.map((pool) => pool.end()));
    },
    on(event: PoolEvent[0], listener: PoolEvent[1]) {
      listeners.push([event, listener] as PoolEvent);
      for (const pool of pools) pool?.on?.(event as 'error', listener as never);
      return this;
    },
  } as PgPoolLike;
}

/**
 * The failure of a `connect()` no server answered as needed: the first server's own
 * failure when each failed for a reason another attempt would meet again (a wrong
 * password), else SQLSTATE `08001` listing every server and why.
 */
function noServer(
  target: MultiHostTarget,
  failures: Failure[],
  isTransient: (error: unknown) => boolean,
): Error {
  if (!failures.some((f) => f.misfit || isTransient(f.error))) return failures[0].error as Error;
  const reasons = failures.map(
    ({ label, error }) => `${label}: ${error instanceof Error ? error.message : String(error)}`,
  );
  return Object.assign(
    new Error(
      `no server fits target_session_attrs=${target.target} (${reasons.join('; ')}); a failover may be under way`,
    ),
    { code: '08001' },
  );
}
