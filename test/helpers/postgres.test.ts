import { afterEach, describe, expect, it, vi } from 'vitest';
import { startPostgres } from './postgres.ts';

describe('startPostgres', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    vi.restoreAllMocks();
  });

  it('uses FINO_DATABASE_URL when set, and stopping it leaves that server alone', async () => {
    process.env.FINO_DATABASE_URL = 'postgres://someone@db.example/app';
    const server = await startPostgres();
    expect(server?.url).toBe('postgres://someone@db.example/app');
    await server?.stop();
  });

  it('skips with a visible message without binaries, and fails instead when CI=true', async () => {
    delete process.env.FINO_DATABASE_URL;
    process.env.FINO_POSTGRES_BIN = '/nonexistent/postgresql/bin';
    delete process.env.CI;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await startPostgres()).toBeUndefined();
    expect(warn.mock.calls[0][0]).toMatch(
      /PostgreSQL binaries not found in \/nonexistent\/postgresql\/bin: PostgreSQL tests are skipped/,
    );
    process.env.CI = 'true';
    await expect(startPostgres()).rejects.toThrow(/PostgreSQL binaries not found/);
  });
});
