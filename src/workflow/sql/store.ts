/**
 * The {@link WorkflowStore} over SQL: one implementation for SQLite and PostgreSQL, whose
 * differences are in the driver. Its parts are files of their own: the runs as the
 * lifecycle API reads and changes them (`run-queries.ts`), due work and claiming it
 * (`run-claims.ts`), the writes of workers under their leases (`run-leases.ts`), the
 * decision code (`run-decisions.ts`), the streams out of runs (`run-streams.ts`), what
 * they share (`store-context.ts`). Leases,
 * tokens, the decision rule, the audit trail and lazy migrations follow the durable
 * kernel (`src/internal/durable/`).
 */
import { lazySchema } from '../../internal/durable/index.ts';
import { mapSqlFailures, type SqlDriver, type SqlFailure } from '../../internal/sql/index.ts';
import { WorkflowError } from '../errors.ts';
import type { WorkflowStore } from '../types.ts';
import { WORKFLOW_SCHEMA, type WorkflowTable } from './migrations.ts';
import { runClaims } from './run-claims.ts';
import { runContinue } from './run-continue.ts';
import { runDecisions } from './run-decisions.ts';
import { runIdentity } from './run-identity.ts';
import { runLeases } from './run-leases.ts';
import { runQueries } from './run-queries.ts';
import { runRepairs } from './run-repairs.ts';
import { runRequests } from './run-requests.ts';
import { runSchedules } from './run-schedules.ts';
import { runStreams } from './run-streams.ts';
import { withWakeups } from './run-wakeups.ts';
import type { WorkflowSql } from './store-context.ts';

/** A {@link WorkflowStore} over any SQL database the driver speaks; schema migrated on first use. */
export function sqlWorkflowStore(sqlDriver: SqlDriver): WorkflowStore {
  const driver = mapSqlFailures(sqlDriver as SqlDriver<WorkflowTable>, workflowErrorOf);
  const t = (name: WorkflowTable) => driver.table(name);
  const sql: WorkflowSql = {
    driver,
    t,
    runs: t('workflow_runs'),
    now: driver.nowMs,
    schema: lazySchema(driver, WORKFLOW_SCHEMA),
  };
  return withWakeups(sql, {
    ...runQueries(sql),
    ...runClaims(sql),
    ...runLeases(sql),
    ...runDecisions(sql),
    ...runRepairs(sql),
    ...runStreams(sql),
    ...runContinue(sql),
    ...runRequests(sql),
    ...runSchedules(sql),
    ...runIdentity(sql),
    close: () => driver.close(),
  });
}

/** The workflow error for a failure of the shared SQL layer: the same code, `UNAVAILABLE` as `STORE_UNAVAILABLE`. */
const workflowErrorOf = (failure: SqlFailure): WorkflowError =>
  new WorkflowError(
    failure.code === 'UNAVAILABLE' ? 'STORE_UNAVAILABLE' : failure.code,
    failure.message,
    failure.cause === undefined ? undefined : { cause: failure.cause },
  );
