import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryStore, SessionError, sqliteStore } from '../../../src/ai/session/index.ts';
import { sqlStore } from '../../../src/ai/session/sql-store.ts';
import { sqliteDriver } from '../../../src/ai/session/sqlite-store.ts';
import { checkTokenMigration, storeConformance } from './store-conformance.ts';

const dir = mkdtempSync(join(tmpdir(), 'fino-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeConformance('memory', async () => ({ store: memoryStore() }), { rawAccess: false });

storeConformance(
  'sqlite',
  async () => {
    const path = join(dir, 'conformance', 'sessions.db');
    const store = sqliteStore(path);
    await store.get('warm-up'); // creates the file and the schema
    const db = new Database(path);
    return {
      store,
      reopen: () => sqliteStore(path),
      sql: async (query, params = []) => {
        const statement = db.prepare(query);
        if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
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
    const db = new Database(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
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
    const db = new Database(path);
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

  it('names the command that installs better-sqlite3 when it is missing, and creates nothing', async () => {
    const path = join(dir, 'no-driver.db');
    const missing = async (name: string) => {
      throw Object.assign(new Error(`Cannot find package '${name}' imported from /app/x.js`), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    };
    const store = sqlStore(sqliteDriver(path, 0, missing));
    const error = await store.get('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect(error).toMatchObject({
      code: 'DRIVER_MISSING',
      message:
        'sqliteStore() needs the "better-sqlite3" package, which is not installed; install it with: npm install better-sqlite3@12',
    });
    expect(existsSync(path)).toBe(false);
    const memory = sqlStore(sqliteDriver(':memory:', 0, missing));
    await expect(memory.list()).rejects.toThrow(/^memoryStore\(\) needs the "better-sqlite3"/);
  });

  it('loads no driver until a store is used: fino:ai/session imports without them', () => {
    const fixtures = join(import.meta.dirname, 'fixtures');
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
    expect(JSON.parse(out)).toEqual({
      failures: {
        sqlite: install('sqliteStore()', 'better-sqlite3', 'npm install better-sqlite3@12'),
        memory: install('memoryStore()', 'better-sqlite3', 'npm install better-sqlite3@12'),
        postgres: install('postgresStore()', 'pg', 'npm install pg'),
      },
      created: false,
    });
  });

  it('passes on other failures to load the driver as they are', async () => {
    const broken = new Error("Cannot find module 'bindings'");
    const store = sqlStore(
      sqliteDriver(':memory:', 0, async () => {
        throw Object.assign(broken, { code: 'MODULE_NOT_FOUND' });
      }),
    );
    await expect(store.list()).rejects.toBe(broken);
  });
});
