/**
 * The {@link Store} over SQL: one implementation for SQLite and PostgreSQL, whose
 * differences are in the {@link SessionDriver}. Its parts and invariants are written
 * where they are kept: runs read and changed outside a lease in `sql-runs.ts`, rounds
 * and positions of pending calls in `sql-rows.ts`, leases and the lock order in
 * `sql-lease.ts`, a worker's end of turn in `sql-finish.ts`, which copy of a pending
 * call is authoritative in `sql-decide.ts`, run events in `sql-events.ts`, threads in `sql-threads/`, schema
 * versions in `migrations.ts`. The rules it shares with the workflow store (leases,
 * tokens, the decision rule, the audit trail, lazy migrations) are the durable kernel's
 * (`src/internal/durable/`).
 */

import { lazySchema } from '../../../internal/durable/index.ts';
import { mapSqlFailures, registerStoreSql } from '../../../internal/sql/index.ts';
import { sessionErrorOf } from '../errors.ts';
import type { Store } from '../types.ts';
import { SESSION_SCHEMA, type SessionDriver } from './migrations.ts';
import { decidePending } from './sql-decide.ts';
import { eventQueries } from './sql-events.ts';
import { finishRun } from './sql-finish.ts';
import { claimNextRun, claimRun, leaseWrites } from './sql-lease.ts';
import { runQueries } from './sql-runs.ts';
import { forgetThread, forkThread, readThreadPage } from './sql-threads/index.ts';

/**
 * A {@link Store} over any SQL database the driver speaks; schema migrated on first use.
 * The SQL layer's failures (`DRIVER_MISSING`, `SCHEMA_TOO_NEW`, `UNAVAILABLE`) become
 * `SessionError`s here, for this store and for the stores sharing its database.
 */
export function sqlStore(sqlDriver: SessionDriver): Store {
  const driver = mapSqlFailures(sqlDriver, sessionErrorOf);
  const schema = lazySchema(driver, SESSION_SCHEMA);
  const store: Store = {
    ...runQueries(driver, schema),
    ...leaseWrites(driver, schema),
    ...eventQueries(driver, schema),

    async finish(runId, owner, outcome) {
      await schema();
      return finishRun(driver, runId, owner, outcome);
    },

    async decide(ref, decision, actor, claim) {
      await schema();
      return decidePending(driver, ref, decision, actor, claim);
    },

    async claim(runId, owner, leaseMs, options = {}) {
      await schema();
      return claimRun(driver, runId, owner, leaseMs, options.retryErrors === true);
    },

    async claimNext(owner, leaseMs, exclude = []) {
      await schema();
      return claimNextRun(driver, owner, leaseMs, exclude);
    },

    async thread(threadId, { before, limit }) {
      await schema();
      return readThreadPage(driver, threadId, before, limit);
    },

    async forgetThread(threadId) {
      await schema();
      return forgetThread(driver, threadId);
    },

    async forkThread(threadId, at, into) {
      await schema();
      return forkThread(driver, threadId, at, into);
    },

    close: () => driver.close(),
  };
  registerStoreSql(store, { driver, migrated: schema });
  return store;
}
