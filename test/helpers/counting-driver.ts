/**
 * A SQL driver that counts the rows its queries return, per table named in the query:
 * how the thread tests and the thread benchmark see what a start reads.
 *
 * @example
 * ```ts
 * const counting = countingDriver(sqliteDriver(':memory:', { busyTimeoutMs: 0, store: 's', database: 'd' }));
 * const store = sqlStore(counting.driver);
 * // … start a run …
 * console.log(counting.rows('thread_messages'));
 * ```
 */
import type { SqlDriver, SqlExecutor } from '../../src/internal/sql/index.ts';

export interface CountingDriver<Table extends string> {
  driver: SqlDriver<Table>;
  /** Rows returned so far by queries that name `fino_<table>`. */
  rows(table: Table): number;
  reset(): void;
}

export function countingDriver<Table extends string>(
  inner: SqlDriver<Table>,
): CountingDriver<Table> {
  const counts = new Map<string, number>();
  const count = (sql: string, rows: readonly unknown[]) => {
    for (const match of sql.matchAll(/fino_([a-z_]+)/g)) {
      counts.set(match[1], (counts.get(match[1]) ?? 0) + rows.length);
    }
  };
  const counted = (executor: SqlExecutor): SqlExecutor => ({
    async query<Row>(sql: string, params?: readonly unknown[]) {
      const rows = await executor.query<Row>(sql, params);
      count(sql, rows);
      return rows;
    },
    exec: (sql) => executor.exec(sql),
  });
  const driver: SqlDriver<Table> = {
    ...inner,
    query: counted(inner).query,
    transaction: (work, options) => inner.transaction((tx) => work(counted(tx)), options),
  };
  return {
    driver,
    rows: (table) => counts.get(table) ?? 0,
    reset: () => counts.clear(),
  };
}
