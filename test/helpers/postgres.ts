/**
 * A throwaway PostgreSQL server for tests.
 *
 * When `FINO_DATABASE_URL` is set, that server is used. Otherwise the PostgreSQL 15
 * binaries in `/usr/lib/postgresql/15/bin` start a server on a temporary data folder and
 * a free loopback port, as the `postgres` user when running as root (PostgreSQL refuses
 * to run as root); `stop()` shuts it down and removes the folder. Without binaries the
 * server is `undefined` and a visible message says why — except when `CI=true`, where
 * that is an error. Each test gets its own schema from {@link freshSchema}, so tests
 * sharing one server never see each other's tables. A test file takes its server from
 * `postgresForTests()` (postgres-for-tests.ts), which also stops it after the file's tests;
 * this file stays free of vitest, for the benchmarks.
 *
 * @example
 * ```ts
 * const pg = await startPostgres();
 * if (pg) {
 *   const schema = await freshSchema(pg.url);
 *   // … postgresStore(pg.url, { schema }) …
 *   await pg.stop();
 * }
 * ```
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
/** Where the PostgreSQL binaries are (`FINO_POSTGRES_BIN` overrides). */
const bin = () => process.env.FINO_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

/** A running server: its connection URL and how to stop it. */
export interface PostgresServer {
  url: string;
  stop(): Promise<void>;
  /**
   * Fault injection, on a server this helper started (absent with `FINO_DATABASE_URL`):
   * `restart` and `halt` stop it the way a crash does (`pg_ctl -m immediate`: every
   * connection is cut, nothing is shut down cleanly), `resume` starts it again. Each
   * resolves once `pg_ctl` has waited for the server to be up (or down).
   */
  faults?: {
    restart(): Promise<void>;
    halt(): Promise<void>;
    resume(): Promise<void>;
  };
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** A new temporary folder for a server's files, owned by `postgres` when this process is root. */
async function serverDir(prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  return dir;
}

/** Runs a PostgreSQL binary, as the `postgres` user when this process is root. */
const asPostgres = (program: string, args: string[]) => {
  const isRoot = process.getuid?.() === 0;
  return isRoot
    ? run('runuser', ['-u', 'postgres', '--', join(bin(), program), ...args])
    : run(join(bin(), program), args);
};

/**
 * Starts (or reuses, with `FINO_DATABASE_URL`) a PostgreSQL server; `undefined` when none
 * is available. Tests run it without durability (`fsync=off`, `synchronous_commit=off`,
 * `full_page_writes=off`); `durable: true` keeps PostgreSQL's durable defaults, as a user
 * runs it (the session benchmark does).
 */
export async function startPostgres({
  durable = false,
}: {
  durable?: boolean;
} = {}): Promise<PostgresServer | undefined> {
  const given = process.env.FINO_DATABASE_URL;
  if (given) return { url: given, stop: async () => {} };
  if (!existsSync(join(bin(), 'postgres'))) {
    const message = `PostgreSQL binaries not found in ${bin()}: PostgreSQL tests are skipped (set FINO_DATABASE_URL or install postgresql-15)`;
    if (process.env.CI === 'true') throw new Error(message);
    console.warn(`\n*** ${message} ***\n`);
    return undefined;
  }
  const dir = await serverDir('fino-pg-');
  const data = join(dir, 'data');
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    ...(durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    '-c max_connections=100',
  ].join(' ');
  try {
    await asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '-N']);
    await asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped = false;
  const ctl = (action: string, ...args: string[]) =>
    asPostgres('pg_ctl', ['-D', data, ...args, '-w', action]).then(() => {});
  const start = ['-o', options, '-l', join(dir, 'log')];
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    faults: {
      restart: () => ctl('restart', '-m', 'immediate', ...start),
      halt: () => ctl('stop', '-m', 'immediate'),
      resume: () => ctl('start', ...start),
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates a new empty schema with a random name and returns that name. */
export async function freshSchema(url: string): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${name}`);
  } finally {
    await client.end();
  }
  return name;
}

/** A hot standby of a server from {@link startStandby}: its URL, promotion, and stop. */
export interface StandbyServer {
  url: string;
  /** Makes it a primary (`pg_ctl promote`); resolves once it accepts writes. */
  promote(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A hot standby of `primary` (a server {@link startPostgres} started: `undefined` for
 * one of `FINO_DATABASE_URL`), copied with `pg_basebackup -R` and streaming from it on
 * a port of its own. The primary's commits then wait for it (`synchronous_standby_names`),
 * so a promoted standby has every committed change.
 */
export async function startStandby(primary: PostgresServer): Promise<StandbyServer | undefined> {
  if (!primary.faults) return undefined;
  const primaryPort = new URL(primary.url).port;
  const dir = await serverDir('fino-pg-standby-');
  const data = join(dir, 'data');
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  const base = ['-h', '127.0.0.1', '-p', primaryPort, '-U', 'postgres'];
  try {
    await asPostgres('pg_basebackup', [...base, '-D', data, '-R', '-X', 'stream']);
    await asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const client = new pg.Client({ connectionString: primary.url });
  await client.connect();
  try {
    await client.query(`ALTER SYSTEM SET synchronous_standby_names = '*'`);
    await client.query('SELECT pg_reload_conf()');
  } finally {
    await client.end();
  }
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    promote: () => asPostgres('pg_ctl', ['-D', data, '-w', 'promote']).then(() => {}),
    async stop() {
      if (stopped) return;
      stopped = true;
      await asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Ends every other client connection of the server, as `pg_terminate_backend` does; how many it ended. */
export async function terminateBackends(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ ended: string }>(
      `SELECT count(pg_terminate_backend(pid)) AS ended FROM pg_stat_activity
       WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'`,
    );
    return Number(rows[0].ended);
  } finally {
    await client.end();
  }
}
