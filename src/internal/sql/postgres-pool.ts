/**
 * The pool a PostgreSQL store opens from its URL: `pg.Pool`s whose connections give up
 * on a server that stopped answering — a primary cut off by a network partition resets
 * no connection, and without limits a query would wait on it forever. A new connection
 * fails after `connectTimeoutMs`, a query after `queryTimeoutMs` (the connection is
 * then discarded), and idle connections send TCP keepalive probes after
 * `keepAliveDelayMs`. Each failure is transient to the driver, which retries and then
 * reports `UNAVAILABLE`. A URL naming several servers gets a pool over them
 * (`postgres-hosts-pool.ts`). Decision 174.
 */

import type { PgPoolLike } from './postgres-driver.ts';
import { multiHostPool } from './postgres-hosts-pool.ts';
import { multiHostTarget } from './postgres-url.ts';

/** How long a store's own connections wait on a server, in milliseconds. */
export interface PostgresTimeouts {
  /** Opening a connection (TCP, TLS, authentication), or waiting for a free one: default 10 000. */
  connectTimeoutMs?: number;
  /** One statement, from sending it to its last row: default 30 000. */
  queryTimeoutMs?: number;
  /** An idle connection's first TCP keepalive probe: default 10 000. */
  keepAliveDelayMs?: number;
}

/** The defaults of {@link PostgresTimeouts}, documented in docs/session.md ("Failover"). */
const DEFAULT_TIMEOUTS: Required<PostgresTimeouts> = {
  connectTimeoutMs: 10_000,
  queryTimeoutMs: 30_000,
  keepAliveDelayMs: 10_000,
};

/** The most connections a store's pool (each server's, for several) keeps open. */
const MAX_CONNECTIONS = 10;

type PoolClass = new (config: object) => PgPoolLike;

/**
 * The pool for `url`, made with `pg`'s `Pool` class; `isTransient` tells the multi-host
 * pool which connection failures to look past.
 */
export function openPool(
  Pool: PoolClass,
  url: string,
  timeouts: PostgresTimeouts | undefined,
  isTransient: (error: unknown) => boolean,
): PgPoolLike {
  const connectTimeoutMs = timeouts?.connectTimeoutMs ?? DEFAULT_TIMEOUTS.connectTimeoutMs;
  const queryTimeoutMs = timeouts?.queryTimeoutMs ?? DEFAULT_TIMEOUTS.queryTimeoutMs;
  const keepAliveDelayMs = timeouts?.keepAliveDelayMs ?? DEFAULT_TIMEOUTS.keepAliveDelayMs;
  const pool = (connectionString: string) =>
    new Pool({
      connectionString,
      max: MAX_CONNECTIONS,
      connectionTimeoutMillis: connectTimeoutMs,
      query_timeout: queryTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: keepAliveDelayMs,
    });
  const target = multiHostTarget(url);
  return target ? multiHostPool(target, pool, isTransient) : pool(url);
}
