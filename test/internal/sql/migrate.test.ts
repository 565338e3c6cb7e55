import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqliteStore } from '../../../src/ai/session/index.ts';
import {
  type Migration,
  migrate,
  type SqlDriver,
  SqlFailure,
  sqliteDriver,
} from '../../../src/internal/sql/index.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const dir = tempDir('sql-migrate');

type JobTable = 'jobs' | 'job_migrations';
const jobMigrations: Migration<JobTable>[] = [
  { version: 1, name: 'jobs', sql: (t) => `CREATE TABLE ${t('jobs')} (id TEXT PRIMARY KEY)` },
  {
    version: 2,
    name: 'job state',
    sql: (t) => `ALTER TABLE ${t('jobs')} ADD COLUMN state TEXT NOT NULL DEFAULT 'new'`,
  },
];
const jobSchema = (migrations = jobMigrations) => ({
  migrations,
  versionsTable: 'job_migrations' as const,
  database: 'the job database',
});
const jobDriver = (path: string): SqlDriver<JobTable> =>
  sqliteDriver(path, { busyTimeoutMs: 1000, store: 'jobStore()', database: 'the job database' });

describe('migrate (a second store on the shared SQL layer)', () => {
  it('keeps its own tables and versions beside the session store, in the same file', async () => {
    const path = join(dir, 'shared.db');
    const sessions = sqliteStore(path);
    await sessions.create({ runId: 'r1', input: 'hi', owner: 'w', leaseMs: 60_000 });
    const jobs = jobDriver(path);
    await migrate(jobs, jobSchema());
    await migrate(jobs, jobSchema()); // a second time applies nothing
    await jobs.query(`INSERT INTO ${jobs.table('jobs')} (id) VALUES (?)`, ['j1']);
    expect(await jobs.query(`SELECT id, state FROM fino_jobs`)).toEqual([
      { id: 'j1', state: 'new' },
    ]);
    expect(
      await jobs.query<{ version: number }>(
        'SELECT version FROM fino_job_migrations ORDER BY version',
      ),
    ).toEqual([{ version: 1 }, { version: 2 }]);
    // The session store's versions are untouched, and it still works.
    expect(
      (await jobs.query<{ version: number }>('SELECT version FROM fino_migrations')).length,
    ).toBeGreaterThan(2);
    expect(await sessions.get('r1')).toMatchObject({ runId: 'r1' });
    await sessions.close();
    await jobs.close();
  });

  it('applies only the migrations a database lacks, and none when one fails (all or none)', async () => {
    const jobs = jobDriver(join(dir, 'partial.db'));
    await migrate(jobs, jobSchema(jobMigrations.slice(0, 1)));
    const broken: Migration<JobTable> = {
      version: 3,
      name: 'broken',
      sql: () => 'CREATE TABLE nonsense (',
    };
    await expect(migrate(jobs, jobSchema([...jobMigrations, broken]))).rejects.toThrow();
    expect(await jobs.query('SELECT version FROM fino_job_migrations')).toEqual([{ version: 1 }]);
    await migrate(jobs, jobSchema());
    expect(await jobs.query('SELECT version FROM fino_job_migrations')).toEqual([
      { version: 1 },
      { version: 2 },
    ]);
    await jobs.close();
  });

  it('refuses a database a newer fino migrated, naming the database and both versions', async () => {
    const jobs = jobDriver(join(dir, 'newer.db'));
    await migrate(jobs, jobSchema());
    const error = await migrate(jobs, jobSchema(jobMigrations.slice(0, 1))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SqlFailure);
    expect(error).toMatchObject({
      code: 'SCHEMA_TOO_NEW',
      message:
        'the job database is at schema version 2, newer than this fino knows (1); upgrade fino',
    });
    await jobs.close();
  });
});
