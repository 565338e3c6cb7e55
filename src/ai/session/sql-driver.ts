import type { Dialect, TableName } from './migrations.ts';

/** Runs SQL written with `?` placeholders; rows come back as plain objects. */
export interface SqlExecutor {
  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters. */
  exec(sql: string): Promise<void>;
}

/** What the SQL store needs of a database: one executor, transactions, and its dialect's details. */
export interface SqlDriver extends SqlExecutor {
  readonly dialect: Dialect;
  readonly table: TableName;
  /** SQL expression for the database's current time in epoch milliseconds. */
  readonly nowMs: string;
  /** Row-lock suffix of a `SELECT` inside a transaction (`''` where the whole database locks). */
  readonly forUpdate: string;
  /** Like `forUpdate`, skipping rows another transaction holds. */
  readonly forUpdateSkipLocked: string;
  /** A statement that serializes migrations across processes inside a transaction, if needed. */
  readonly migrationLock?: string;
  /** Runs `work` in a write transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Whether an error is a unique-key violation. */
  isUniqueViolation(error: unknown): boolean;
  close(): Promise<void>;
}
