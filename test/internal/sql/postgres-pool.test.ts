/**
 * The pool a PostgreSQL store opens from its URL, against a real server: a server that
 * stops answering without resetting connections (a network partition, played by a proxy
 * that blackholes) is given up on within the timeouts and reported `STORE_UNAVAILABLE`;
 * a URL naming several servers (libpq's multi-host syntax, `target_session_attrs`)
 * connects to the first that fits. Issue 32, item 2.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SessionError } from '../../../src/ai/session/index.ts';
import { sqlStore } from '../../../src/ai/session/store/sql-store.ts';
import { type PostgresDriverOptions, postgresDriver } from '../../../src/internal/sql/index.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tcpProxy } from '../../helpers/tcp-proxy.ts';

const postgres = postgresForTests();

/** `promise`, or a failure saying it was still pending after `ms` (a hang, on a loaded machine too). */
const within = <T>(ms: number, promise: Promise<T>): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms).unref(),
    ),
  ]);

/** A loopback port nothing listens on. */
const deadPort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A session store on `url`, retrying for `budgetMs` (a short stand-in for the default 30 s). */
function storeOn(
  url: string,
  schema: string,
  budgetMs: number,
  timeouts?: PostgresDriverOptions['timeouts'],
) {
  const driver = postgresDriver(url, {
    schema,
    store: 'postgresStore()',
    database: 'the session database',
    retry: { budgetMs, firstDelayMs: 20, maxDelayMs: 200 },
    ...(timeouts ? { timeouts } : {}),
  });
  return { driver, store: sqlStore(driver) };
}

const serverOf = async () => {
  const server = await postgres();
  if (!server) return undefined;
  return {
    url: server.url,
    port: Number(new URL(server.url).port),
    schema: await freshSchema(server.url),
  };
};

describe('a server that stops answering (a network partition)', () => {
  it('fails a query cut off mid-way, and the next operations, within the timeouts with STORE_UNAVAILABLE; works again once the server is reachable', async (ctx) => {
    const server = await serverOf();
    if (!server) return ctx.skip();
    const proxy = await tcpProxy(server.port);
    const url = `postgres://postgres@127.0.0.1:${proxy.port}/postgres`;
    const { driver, store } = storeOn(url, server.schema, 1_000, {
      connectTimeoutMs: 500,
      queryTimeoutMs: 1_000,
    });
    try {
      expect(await store.get('nothing')).toBeUndefined(); // connected, tables made
      const inFlight = driver.query('SELECT pg_sleep(0.5)').catch((e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 100));
      proxy.blackhole(); // the answer never comes; nothing is reset
      // Bound: the query timeout, then the retry budget with connection timeouts: 3 s here.
      expect(await within(15_000, inFlight)).toMatchObject({
        code: 'UNAVAILABLE',
        message: expect.stringMatching(/^the session database is unavailable: /),
      });
      const later = await within(
        15_000,
        store.get('nothing').catch((e: unknown) => e),
      );
      expect(later).toBeInstanceOf(SessionError);
      expect(later).toMatchObject({ code: 'STORE_UNAVAILABLE' });
      proxy.heal();
      expect(await within(15_000, store.get('nothing'))).toBeUndefined();
    } finally {
      await proxy.close(); // first: a query still waiting would keep the pool from ending
      await store.close();
    }
  }, 60_000);
  it('gives up on a transaction cut off mid-way after one query timeout, not two (no ROLLBACK waits behind the statement)', async (ctx) => {
    const server = await serverOf();
    if (!server) return ctx.skip();
    const proxy = await tcpProxy(server.port);
    const url = `postgres://postgres@127.0.0.1:${proxy.port}/postgres`;
    const { driver } = storeOn(url, server.schema, 0, { queryTimeoutMs: 2_000 });
    try {
      await driver.query('SELECT 1'); // connected
      const started = Date.now();
      const cut = driver
        .transaction((tx) => tx.query('SELECT pg_sleep(0.5)'))
        .catch((e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 100));
      proxy.blackhole();
      expect(await within(15_000, cut)).toMatchObject({ code: 'UNAVAILABLE' });
      expect(Date.now() - started).toBeLessThan(3_500); // a ROLLBACK's own timeout would make it 4 s
    } finally {
      await proxy.close();
      await driver.close();
    }
  }, 60_000);
});

describe('a URL naming several servers', () => {
  it('connects to the first one that answers, in the host part or in host and port parameters', async (ctx) => {
    const server = await serverOf();
    if (!server) return ctx.skip();
    const dead = await deadPort();
    for (const url of [
      `postgresql://postgres@127.0.0.1:${dead},127.0.0.1:${server.port}/postgres?target_session_attrs=read-write`,
      `postgresql://postgres@/postgres?host=127.0.0.1,127.0.0.1&port=${dead},${server.port}`,
      `postgresql://postgres@127.0.0.1:${server.port}/postgres?target_session_attrs=primary`,
    ]) {
      const { store } = storeOn(url, server.schema, 2_000);
      try {
        expect(await store.get('nothing')).toBeUndefined();
      } finally {
        await store.close();
      }
    }
  }, 60_000);

  it('skips a server that does not accept writes; with none that fits, STORE_UNAVAILABLE names each server and why', async (ctx) => {
    const server = await serverOf();
    if (!server) return ctx.skip();
    const dead = await deadPort();
    const readOnly = `options=${encodeURIComponent('-c default_transaction_read_only=on')}`;
    const url = `postgresql://postgres@127.0.0.1:${dead},127.0.0.1:${server.port}/postgres?target_session_attrs=read-write&${readOnly}`;
    const { store } = storeOn(url, server.schema, 300);
    try {
      const error = await store.get('nothing').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessionError);
      expect(error).toMatchObject({
        code: 'STORE_UNAVAILABLE',
        message: expect.stringMatching(
          new RegExp(
            `^the session database is unavailable: no server fits target_session_attrs=read-write \\(127\\.0\\.0\\.1:${dead}: connect ECONNREFUSED .*; 127\\.0\\.0\\.1:${server.port}: SHOW transaction_read_only answered on\\); a failover may be under way`,
          ),
        ),
      });
    } finally {
      await store.close();
    }
  }, 60_000);
});
