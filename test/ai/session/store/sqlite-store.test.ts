import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryStore, SessionError, sqliteStore } from '../../../../src/ai/session/index.ts';
import { sqlStore } from '../../../../src/ai/session/store/sql-store.ts';
import { type Importer, sqliteDriver } from '../../../../src/internal/sql/index.ts';
import { builtinSqlite, openSqlite } from '../../../helpers/sqlite.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';
import { checkTokenMigration, storeConformance } from './store-conformance.ts';

/** The session's SQLite driver with its module loading replaced (as `sqliteStore()` makes it otherwise). */
const driverWith = (path: string, importer: Importer) =>
  sqliteDriver(path, {
    busyTimeoutMs: 0,
    store: path === ':memory:' ? 'memoryStore()' : 'sqliteStore()',
    database: 'the session database',
    importer,
  });

const dir = tempDir('sqlite');

storeConformance('memory', async () => ({ store: memoryStore() }), { rawAccess: false });

storeConformance(
  'sqlite',
  async () => {
    const path = join(dir, 'conformance', 'sessions.db');
    const store = sqliteStore(path);
    await store.get('warm-up'); // creates the file and the schema
    const db = openSqlite(path);
    return {
      store,
      reopen: () => sqliteStore(path),
      sql: async (query, params = []) => {
        const statement = db.prepare(query);
        if (/^\s*(SELECT|PRAGMA)|RETURNING/i.test(query)) {
          return statement.all(...params) as Record<string, unknown>[];
        }
        statement.run(...params);
        return [];
      },
      close: async () => {
        db.close();
      },
    };
  },
  { rawAccess: true },
);

describe('sqliteStore', () => {
  it('creates its file and folder on first use, in WAL mode', async () => {
    const path = join(dir, 'lazy', 'nested', 'runs.db');
    const store = sqliteStore(path);
    expect(existsSync(path)).toBe(false);
    expect(await store.get('x')).toBeUndefined();
    expect(existsSync(path)).toBe(true);
    await store.close();
    const db = openSqlite(path);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    db.close();
  });

  it('defaults to .fino/sessions.db in the working directory', async () => {
    const cwd = process.cwd();
    const work = mkdtempSync(join(dir, 'cwd-'));
    process.chdir(work);
    try {
      const store = sqliteStore();
      await store.get('x');
      await store.close();
      expect(existsSync(join(work, '.fino', 'sessions.db'))).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  });

  it('refuses a path that is not a string', () => {
    expect(() => sqliteStore('' as string)).toThrow(/expected a file path/);
  });

  it('creates the database and its -wal and -shm files readable by their owner only', async () => {
    const path = join(dir, 'private', 'runs.db');
    const umask = process.umask(0o000); // even with nothing masked
    try {
      const store = sqliteStore(path);
      await store.get('x');
      const modes = ['', '-wal', '-shm'].map((suffix) => statSync(path + suffix).mode & 0o777);
      expect(modes).toEqual([0o600, 0o600, 0o600]);
      await store.close();
    } finally {
      process.umask(umask);
    }
  });

  it('leaves the mode of an existing database file as it is, and gives its companions the same', async () => {
    const path = join(dir, 'shared.db');
    writeFileSync(path, '', { mode: 0o640 });
    const store = sqliteStore(path);
    await store.get('x');
    const modes = ['', '-wal', '-shm'].map((suffix) => statSync(path + suffix).mode & 0o777);
    expect(modes).toEqual([0o640, 0o640, 0o640]);
    await store.close();
  });

  it('migrates a database with plain tokens to hashes in place', async () => {
    const path = join(dir, 'v1.db');
    const db = openSqlite(path);
    try {
      await checkTokenMigration(
        'sqlite',
        async (query, params = []) => db.prepare(query).run(...params),
        () => sqliteStore(path),
        async (query) => db.prepare(query).all() as Record<string, unknown>[],
      );
    } finally {
      db.close();
    }
  });

  it.each([
    [-1, 'received number -1'],
    [2 ** 31, `received number ${2 ** 31}`],
    [Number.NaN, 'received number NaN'],
    ['10' as never, 'received string "10"'],
  ])('refuses busyTimeoutMs %s at construction', (busyTimeoutMs, received) => {
    expect(() => sqliteStore(join(dir, 'never.db'), { busyTimeoutMs })).toThrow(
      new RangeError(
        `sqliteStore: busyTimeoutMs: expected a number of milliseconds ≥ 0 and ≤ 2147483647 (about 24.8 days, the longest a Node.js timer waits), ${received}`,
      ),
    );
    expect(existsSync(join(dir, 'never.db'))).toBe(false);
  });

  it('accepts busyTimeoutMs 0 (fail at once when another process writes)', async () => {
    const store = sqliteStore(join(dir, 'no-wait.db'), { busyTimeoutMs: 0 });
    expect(await store.list()).toEqual([]);
    await store.close();
  });

  it('on a Node.js without node:sqlite, names the command that installs better-sqlite3 when it is missing, and creates nothing', async () => {
    const path = join(dir, 'no-driver.db');
    const missing = async (name: string) => {
      if (name === 'node:sqlite') {
        throw Object.assign(new Error(`No such built-in module: ${name}`), {
          code: 'ERR_UNKNOWN_BUILTIN_MODULE',
        });
      }
      throw Object.assign(new Error(`Cannot find package '${name}' imported from /app/x.js`), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    };
    const store = sqlStore(driverWith(path, missing));
    const error = await store.get('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect(error).toMatchObject({
      code: 'DRIVER_MISSING',
      message: `sqliteStore() needs the "better-sqlite3" package on a Node.js without node:sqlite (this is ${process.version}), which is not installed; install it with: npm install better-sqlite3@12, or use Node.js 22.13 or later`,
    });
    expect(existsSync(path)).toBe(false);
    const memory = sqlStore(driverWith(':memory:', missing));
    await expect(memory.list()).rejects.toThrow(/^memoryStore\(\) needs the "better-sqlite3"/);
  });

  it.runIf(builtinSqlite())(
    'uses node:sqlite where Node.js has it, never importing better-sqlite3',
    async () => {
      const imported: string[] = [];
      const path = join(dir, 'builtin', 'runs.db');
      const store = sqlStore(
        driverWith(path, async (name) => {
          imported.push(name);
          if (name === 'better-sqlite3') throw new Error('better-sqlite3 must not be loaded');
          return import(name);
        }),
      );
      await store.create({ runId: 'r1', input: 'hi', owner: 'w', leaseMs: 1000 });
      expect(await store.get('r1')).toMatchObject({ runId: 'r1', status: 'running' });
      await store.close();
      expect(imported).toEqual(['node:sqlite']);
    },
  );

  it('fails with STORE_UNAVAILABLE, naming the file, when another connection holds the write lock past busyTimeoutMs', async () => {
    const path = join(dir, 'busy.db');
    const store = sqliteStore(path, { busyTimeoutMs: 50 });
    await store.create({ runId: 'r1', input: 'hi', owner: 'w', leaseMs: 60_000 });
    const other = openSqlite(path);
    other.exec('BEGIN IMMEDIATE');
    try {
      const error = await store
        .create({ runId: 'r2', input: 'hi', owner: 'w', leaseMs: 60_000 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessionError);
      expect(error).toMatchObject({
        code: 'STORE_UNAVAILABLE',
        message: expect.stringContaining(
          `the session database ${path} is unavailable: database is locked`,
        ),
      });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    // Once the lock is released, the store works again and nothing was half-written.
    await store.create({ runId: 'r2', input: 'hi', owner: 'w', leaseMs: 60_000 });
    expect((await store.list()).map((run) => !(run instanceof Error) && run.runId)).toEqual([
      'r1',
      'r2',
    ]);
    await store.close();
  });

  it('loads no driver until a store is used: fino:ai/session imports without them (and SQLite needs none where Node.js has node:sqlite)', () => {
    const fixtures = join(import.meta.dirname, '..', 'fixtures');
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        join(fixtures, 'hide-drivers.mjs'),
        '--import',
        'tsx',
        join(fixtures, 'without-drivers.ts'),
        dir,
      ],
      { encoding: 'utf8' },
    );
    const install = (store: string, name: string, command: string) => ({
      code: 'DRIVER_MISSING',
      message: `${store} needs the "${name}" package, which is not installed; install it with: ${command}`,
    });
    const sqliteMissing = (store: string) => ({
      code: 'DRIVER_MISSING',
      message: `${store} needs the "better-sqlite3" package on a Node.js without node:sqlite (this is ${process.version}), which is not installed; install it with: npm install better-sqlite3@12, or use Node.js 22.13 or later`,
    });
    const builtin = builtinSqlite() !== undefined;
    expect(JSON.parse(out)).toEqual({
      failures: {
        sqlite: builtin ? 'no error' : sqliteMissing('sqliteStore()'),
        memory: builtin ? 'no error' : sqliteMissing('memoryStore()'),
        postgres: install('postgresStore()', 'pg', 'npm install pg'),
      },
      created: builtin,
    });
  });

  it('passes on other failures to load the driver as they are', async () => {
    const broken = new Error("Cannot find module 'bindings'");
    const store = sqlStore(
      driverWith(':memory:', async (name) => {
        if (name === 'node:sqlite') throw new Error('No such built-in module: node:sqlite');
        throw Object.assign(broken, { code: 'MODULE_NOT_FOUND' });
      }),
    );
    await expect(store.list()).rejects.toBe(broken);
  });
});
