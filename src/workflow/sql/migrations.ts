/**
 * The workflow stores' schema: their own tables and migration list, applied once per
 * store in one transaction (serialized across processes on PostgreSQL).
 */
import { WorkflowError } from '../errors.ts';
import type { SqlDriver } from './driver.ts';

/** The workflow tables, qualified by the store's schema when it has one. */
export type WorkflowTable =
  | 'workflow_runs'
  | 'workflow_history'
  | 'workflow_signals'
  | 'workflow_migrations';

/** Names a workflow table with the driver's qualification (`"schema".fino_workflow_runs`). */
export const tableOf =
  (driver: SqlDriver) =>
  (name: WorkflowTable): string =>
    driver.table(name as never);

interface Migration {
  version: number;
  name: string;
  sql(t: (name: WorkflowTable) => string, dialect: SqlDriver['dialect']): string;
}

/** Every schema change so far, oldest first. Never edit one that shipped: add the next. */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'workflow runs, their histories and signals',
    sql: (t, dialect) => `
      CREATE TABLE ${t('workflow_runs')} (
        run_id TEXT PRIMARY KEY,
        workflow_id TEXT NOT NULL,
        run_key TEXT,
        status TEXT NOT NULL,
        format INTEGER NOT NULL,
        input TEXT,
        output TEXT,
        error TEXT,
        waiting TEXT,
        wake_at BIGINT,
        cancel_requested INTEGER NOT NULL DEFAULT 0,
        lease_owner TEXT,
        lease_expires_at BIGINT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (workflow_id, run_key)
      );
      CREATE INDEX fino_workflow_runs_wake ON ${t('workflow_runs')} (wake_at);
      CREATE INDEX fino_workflow_runs_status ON ${t('workflow_runs')} (workflow_id, status, created_at);
      CREATE TABLE ${t('workflow_history')} (
        run_id TEXT NOT NULL REFERENCES ${t('workflow_runs')} (run_id) ON DELETE CASCADE,
        entry_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (run_id, entry_id)
      );
      CREATE TABLE ${t('workflow_signals')} (
        id ${dialect === 'postgres' ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT'},
        run_id TEXT NOT NULL REFERENCES ${t('workflow_runs')} (run_id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        payload TEXT,
        consumed_by TEXT,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX fino_workflow_signals_run ON ${t('workflow_signals')} (run_id, name, id);`,
  },
];

/** The newest schema version this fino knows. */
export const KNOWN_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/**
 * Applies the migrations the database has not recorded yet, oldest first, all or none;
 * `SCHEMA_TOO_NEW` when a newer fino migrated the database.
 */
export async function migrateWorkflows(driver: SqlDriver): Promise<void> {
  const t = tableOf(driver);
  await driver.transaction(async (tx) => {
    if (driver.migrationLock) await tx.query(driver.migrationLock);
    await tx.exec(
      `CREATE TABLE IF NOT EXISTS ${t('workflow_migrations')} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
    );
    const rows = await tx.query<{ version: number | string }>(
      `SELECT version FROM ${t('workflow_migrations')}`,
    );
    const applied = rows.map((row) => Number(row.version));
    const newest = Math.max(0, ...applied);
    if (newest > KNOWN_VERSION) {
      throw new WorkflowError(
        'SCHEMA_TOO_NEW',
        `the workflow database is at schema version ${newest}, newer than this fino knows (${KNOWN_VERSION}); upgrade fino`,
      );
    }
    for (const migration of MIGRATIONS.filter((m) => !applied.includes(m.version))) {
      await tx.exec(migration.sql(t, driver.dialect));
      await tx.query(
        `INSERT INTO ${t('workflow_migrations')} (version, name, applied_at) VALUES (?, ?, ${driver.nowMs})`,
        [migration.version, migration.name],
      );
    }
  });
}
