/**
 * The three workflow stores: memory (tests, one process), SQLite (the embedded default)
 * and PostgreSQL (many workers on many machines) — one SQL implementation.
 */
import { join } from 'node:path';
import {
  memoryStoreDriver,
  type PostgresOptions,
  postgresStoreDriver,
  type SqliteOptions,
  sqliteStoreDriver,
} from '../internal/durable/index.ts';
import type { PgPoolLike } from '../internal/sql/index.ts';
import { WorkflowError } from './errors.ts';
import { sqlWorkflowStore } from './sql/index.ts';
import type { WorkflowStore } from './types.ts';

/**
 * The default file of {@link sqliteWorkflowStore}, relative to the working directory.
 *
 * @example
 * ```ts
 * import { DEFAULT_WORKFLOW_DB } from 'fino:workflow';
 *
 * console.log(DEFAULT_WORKFLOW_DB); // .fino/workflows.db
 * ```
 */
export const DEFAULT_WORKFLOW_DB = join('.fino', 'workflows.db');

/**
 * Workflow runs in memory, for tests and one process: the SQLite engine of
 * {@link sqliteWorkflowStore} on an in-memory database, so it behaves like the others.
 * Uses `node:sqlite` (Node.js 22.13+), else the optional `better-sqlite3` package.
 * Everything is lost when the process ends.
 *
 * @example
 * ```ts
 * import { memoryWorkflowStore } from 'fino:workflow';
 *
 * const store = memoryWorkflowStore();
 * console.log(await store.list()); // []
 * await store.close();
 * ```
 */
export function memoryWorkflowStore(): WorkflowStore {
  return sqlWorkflowStore(memoryStoreDriver('memoryWorkflowStore', 'the memory workflow store'));
}

/**
 * Options of {@link sqliteWorkflowStore}: `busyTimeoutMs`, how long to wait for another
 * process's write lock.
 */
export interface SqliteWorkflowStoreOptions extends SqliteOptions {}

/**
 * Workflow runs in one SQLite file (default `.fino/workflows.db`, created on first use,
 * owner-only permissions, WAL): the embedded default; several processes on one machine
 * can share it. Uses `node:sqlite` (Node.js 22.13+), else the optional `better-sqlite3`
 * package, imported on first use.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { sqliteWorkflowStore } from 'fino:workflow';
 *
 * const store = sqliteWorkflowStore(join(mkdtempSync(join(tmpdir(), 'wf-')), 'workflows.db'));
 * console.log((await store.list({ status: 'waiting' })).length); // 0
 * await store.close();
 * ```
 */
export function sqliteWorkflowStore(
  path: string = DEFAULT_WORKFLOW_DB,
  options: SqliteWorkflowStoreOptions = {},
): WorkflowStore {
  return sqlWorkflowStore(
    sqliteStoreDriver(
      'sqliteWorkflowStore',
      path,
      options,
      (file) => `the workflow database ${file}`,
    ),
  );
}

/**
 * Options of {@link postgresWorkflowStore}: `schema`, the PostgreSQL schema holding the
 * workflow tables.
 */
export interface PostgresWorkflowStoreOptions extends PostgresOptions {}

/**
 * Workflow runs in PostgreSQL, for many workers on many machines: leases are row-locked
 * and workers claim due runs with `FOR UPDATE SKIP LOCKED`. Pass a `postgres://` URL (the
 * store owns its pool) or your own `pg.Pool` (left open by `close()`). Needs the
 * optional `pg` package with a URL.
 *
 * @example
 * ```ts
 * import { postgresWorkflowStore } from 'fino:workflow';
 *
 * const store = postgresWorkflowStore(process.env.FINO_DATABASE_URL!);
 * console.log((await store.list({ status: 'waiting' })).length);
 * await store.close();
 * ```
 */
export function postgresWorkflowStore(
  urlOrPool: string | PgPoolLike,
  options: PostgresWorkflowStoreOptions = {},
): WorkflowStore {
  return sqlWorkflowStore(
    postgresStoreDriver(
      'postgresWorkflowStore',
      urlOrPool,
      options,
      (message) => new WorkflowError('INVALID_ARGUMENT', message),
      'the workflow database',
    ),
  );
}
