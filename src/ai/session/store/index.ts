/**
 * The session stores: `sqliteStore` and `memoryStore` (`sqlite-store.ts`),
 * `postgresStore` (`postgres-store.ts`), both the one SQL store (`sql-store.ts`) over
 * their driver, in its parts — runs read and changed outside a lease (`sql-runs.ts`),
 * rounds and positions of pending calls (`sql-rows.ts`), leases and the lock order
 * (`sql-lease.ts`), a worker's end of turn (`sql-finish.ts`), which copy of a pending
 * call is authoritative (`sql-decide.ts`), run events (`sql-events.ts`), threads (`sql-threads/`), the schema and its
 * migrations (`migrations.ts`) and the layout of a run's row (`codec.ts`).
 *
 * It imports `src/internal/` (the SQL layer and the durable kernel), `fino:ai/agent`,
 * `fino:ai/model` and the session's `errors.ts` and `types.ts` (the `Store` interface
 * it implements); never the session API (`session*.ts`, `drive-run.ts`, …) nor
 * `inbox/`. The rest of `ai/session` reaches it through this file.
 */
export { RUN_STATUSES } from './codec.ts';
export {
  type PgClientLike,
  type PgPoolLike,
  type PgResultLike,
  type PostgresStoreOptions,
  postgresStore,
} from './postgres-store.ts';
export { DEFAULT_THREAD_TOKENS } from './sql-threads/index.ts';
export {
  DEFAULT_SQLITE_PATH,
  memoryStore,
  type SqliteStoreOptions,
  sqliteStore,
} from './sqlite-store.ts';
