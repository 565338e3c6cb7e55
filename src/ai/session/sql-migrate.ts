/**
 * Migrating the SQL store's schema: once per store, in one transaction, serialized
 * across processes where the database needs it (a PostgreSQL advisory lock).
 */
import { dueMigrations, migrationsTableSql } from './migrations.ts';
import type { SqlDriver } from './sql-driver.ts';

/** Applies the migrations the database has not recorded yet, oldest first, all or none. */
export async function migrate(driver: SqlDriver): Promise<void> {
  const t = driver.table;
  await driver.transaction(async (tx) => {
    if (driver.migrationLock) await tx.query(driver.migrationLock);
    await tx.exec(migrationsTableSql(t));
    const applied = await tx.query<{ version: number | string }>(
      `SELECT version FROM ${t('migrations')}`,
    );
    for (const migration of dueMigrations(applied.map((row) => Number(row.version)))) {
      await tx.exec(migration.sql(t, driver.dialect));
      await migration.data?.(tx, t);
      await tx.query(
        `INSERT INTO ${t('migrations')} (version, name, applied_at) VALUES (?, ?, ${driver.nowMs})`,
        [migration.version, migration.name],
      );
    }
  });
}
