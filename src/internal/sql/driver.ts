/**
 * The SQL layer that fino's durable stores share (the session store in `ai/session`,
 * the workflow stores in `workflow`): one {@link SqlDriver} interface over SQLite
 * (`node:sqlite`, or `better-sqlite3` on Node.js 20) and PostgreSQL (`pg`), driver
 * loading with `DRIVER_MISSING`, a migration runner, retries of transient failures, and
 * PostgreSQL's text escaping. It knows no module: its failures are `SqlFailure`s
 * that each store maps to its own error class with `mapSqlFailures`.
 *
 * A second store on this layer, with its own tables and migrations (a workflow store
 * would name `postgresDriver(urlOrPool, { schema, store, database })` the same way):
 *
 * ```ts
 * import { type Migration, mapSqlFailures, migrate, type SqlDriver, sqliteDriver } from './index.ts';
 *
 * type JobTable = 'jobs' | 'job_migrations';
 * const schema = {
 *   migrations: [
 *     { version: 1, name: 'jobs', sql: (t) => `CREATE TABLE ${t('jobs')} (id TEXT PRIMARY KEY)` },
 *   ] satisfies Migration<JobTable>[],
 *   versionsTable: 'job_migrations' as const,
 *   database: 'the job database', // named by SCHEMA_TOO_NEW and UNAVAILABLE messages
 * };
 * const driver: SqlDriver<JobTable> = mapSqlFailures(
 *   sqliteDriver(':memory:', { busyTimeoutMs: 0, store: 'jobStore()', database: schema.database }),
 *   (failure) => new Error(`${failure.code}: ${failure.message}`), // the module's own error class
 * );
 * await migrate(driver, schema); // once per store, before its first operation
 * await driver.query(`INSERT INTO ${driver.table('jobs')} (id) VALUES (?)`, ['j1']);
 * console.log(await driver.query(`SELECT id FROM ${driver.table('jobs')}`)); // [ { id: 'j1' } ]
 * await driver.close();
 * ```
 *
 * Tables are named through `driver.table(name)`, which prefixes `fino_` and qualifies
 * with the PostgreSQL schema: pick names no other store uses (the session store owns
 * `runs`, `pending`, `audit`, `migrations`, `mcp_tasks`). `driver.query` and
 * `driver.exec` retry transient failures on their own; `driver.transaction(work)` runs
 * `work` again from the start after one, so `work` must do nothing but SQL on its `tx`.
 * Lease rules, tokens and the audit trail are the durable kernel's
 * (`src/internal/durable/`), written over `nowMs` (the database's clock) and
 * `forUpdateSkipLocked`.
 */
/** The SQL dialects the drivers speak. */
export type Dialect = 'sqlite' | 'postgres';

/** Runs SQL written with `?` placeholders; rows come back as plain objects. */
export interface SqlExecutor {
  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters. */
  exec(sql: string): Promise<void>;
}

/** How {@link SqlDriver.transaction} may treat its `work`. */
export interface TransactionOptions {
  /**
   * Whether `work`, run again after its first run committed, changes nothing more and
   * answers as the first run did — it finds its own write (the lease it holds, a token
   * hash, an entry's id) under the run's row lock, which a first attempt still in flight
   * holds until it ends. Such work is run again after a commit whose outcome is unknown
   * (the connection failed while `COMMIT` was in flight), so that outcome is resolved;
   * other work fails then with `UNAVAILABLE` (decision 170).
   */
  idempotent?: boolean;
}

/**
 * What a store needs of a database: one executor, transactions, and its dialect's
 * details. `Table` is the store's own table names (any string by default: a driver is
 * made for no store in particular, and narrows to any).
 */
export interface SqlDriver<Table extends string = string> extends SqlExecutor {
  readonly dialect: Dialect;
  /** The SQL name of one of the store's tables: `fino_<name>`, in the driver's schema if it has one. */
  table(name: Table): string;
  /** SQL expression for the database's current time in epoch milliseconds. */
  readonly nowMs: string;
  /** Row-lock suffix of a `SELECT` inside a transaction (`''` where the whole database locks). */
  readonly forUpdate: string;
  /** Like `forUpdate`, skipping rows another transaction holds. */
  readonly forUpdateSkipLocked: string;
  /** A statement that serializes, across processes, transactions that run it with the same `key`; if needed. */
  lockStatement?(key: string): string;
  /**
   * Runs `work` in a write transaction: committed when it resolves, rolled back when it
   * throws; run again from the start after a transient failure (see `retry.ts`), and after
   * a commit whose outcome is unknown when `options.idempotent` says it may be.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Whether an error is a unique-key violation. */
  isUniqueViolation(error: unknown): boolean;
  close(): Promise<void>;
  /**
   * Hears notifications on `channel` until `close()`: PostgreSQL's `LISTEN` on a connection
   * of its own, listening again after an outage (`postgres-listen.ts`); SQLite's are this
   * process's only (`local-notify.ts`).
   */
  listen?(channel: string, onNotify: (payload?: string) => void): { close(): Promise<void> };
  /** Notifies this process's listeners of `channel`; only where the database has no notifications of its own (SQLite). */
  notify?(channel: string, payload?: string): void;
  /**
   * Takes a lock named `key` held while this process lives, or `undefined` when another
   * holds it; where the database has one (PostgreSQL, `postgres-session-lock.ts`).
   */
  sessionLock?(key: string, onLost: () => void): Promise<{ release(): Promise<void> } | undefined>;
}
