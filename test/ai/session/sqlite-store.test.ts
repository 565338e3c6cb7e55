import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryStore, sqliteStore } from '../../../src/ai/session/index.ts';
import { storeConformance } from './store-conformance.ts';

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
});
