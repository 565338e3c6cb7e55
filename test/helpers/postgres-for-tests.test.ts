import { describe, expect, it } from 'vitest';
import { postgresForTests } from './postgres-for-tests.ts';

describe('postgresForTests', () => {
  // FINO_DATABASE_URL names a server: the helper takes it instead of starting one.
  const saved = process.env.FINO_DATABASE_URL;
  process.env.FINO_DATABASE_URL = 'postgres://someone@db.example/app';
  const postgres = postgresForTests();
  if (saved === undefined) delete process.env.FINO_DATABASE_URL;
  else process.env.FINO_DATABASE_URL = saved;

  it('resolves every call to the one server of the file', async () => {
    const first = await postgres();
    expect(first?.url).toBe('postgres://someone@db.example/app');
    expect(await postgres()).toBe(first);
  });
});
