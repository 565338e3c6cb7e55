/**
 * Migrating a store's schema: once per store, in one transaction, serialized across
 * processes where the database needs it (a PostgreSQL advisory lock). Each store keeps
 * its own list of migrations and its own table of applied versions.
 */
import type { Dialect, SqlDriver, SqlExecutor } from './driver.ts';
import { SqlFailure } from './errors.ts';

/** One schema change; applied once, in order, and recorded in the store's versions table. */
export interface Migration<Table extends string = string> {
  version: number;
  name: string;
  sql(table: (name: Table) => string, dialect: Dialect): string;
  /** Rewrites existing rows after `sql`, in the same transaction, where SQL alone cannot. */
  data?(db: SqlExecutor, table: (name: Table) => string): Promise<void>;
}

/** A store's schema: its migrations, oldest first, and where the applied versions are recorded. */
export interface Schema<Table extends string> {
  /** Every schema change so far, oldest first. Never edit one that shipped: add the next. */
  migrations: readonly Migration<Table>[];
  /** The table recording applied versions (created when missing). */
  versionsTable: Table;
  /** The database as users know it, for `SCHEMA_TOO_NEW` messages ("the session database"). */
  database: string;
}

/** Creates the versions table when missing. */
export const versionsTableSql = (name: string): string =>
  `CREATE TABLE IF NOT EXISTS ${name} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`;

/**
 * The migrations still to apply, given the versions already recorded; `SCHEMA_TOO_NEW`
 * when the database has a version this fino does not know (a newer fino migrated it).
 */
export function dueMigrations<Table extends string>(
  schema: Schema<Table>,
  applied: readonly number[],
): Migration<Table>[] {
  const { migrations } = schema;
  const known = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
  const newest = Math.max(0, ...applied);
  if (newest > known) {
    throw new SqlFailure(
      'SCHEMA_TOO_NEW',
      `${schema.database} is at schema version ${newest}, newer than this fino knows (${known}); upgrade fino`,
    );
  }
  return migrations.filter((m) => !applied.includes(m.version));
}

/** Applies the migrations the database has not recorded yet, oldest first, all or none. */
export async function migrate<Table extends string>(
  driver: SqlDriver<Table>,
  schema: Schema<Table>,
): Promise<void> {
  const t = (name: Table) => driver.table(name);
  const versions = t(schema.versionsTable);
  await driver.transaction(async (tx) => {
    if (driver.lockStatement) await tx.query(driver.lockStatement(versions));
    await tx.exec(versionsTableSql(versions));
    const applied = await tx.query<{ version: number | string }>(`SELECT version FROM ${versions}`);
    for (const migration of dueMigrations(
      schema,
      applied.map((row) => Number(row.version)),
    )) {
      await tx.exec(migration.sql(t, driver.dialect));
      await migration.data?.(tx, t);
      await tx.query(
        `INSERT INTO ${versions} (version, name, applied_at) VALUES (?, ?, ${driver.nowMs})`,
        [migration.version, migration.name],
      );
    }
  });
}
