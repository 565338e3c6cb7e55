/**
 * A `pg.Pool` for a store that fails chosen transactions exactly at `COMMIT`, as a
 * connection dropped while the commit is in flight does: `landed` commits first and then
 * throws the connection error, `lost` rolls back and throws it. Which transactions fail is
 * `fault(statements)`, asked at each `COMMIT` with the statements of its transaction. A
 * statement outside a transaction (`pool.query`) commits on its own: it is asked with
 * that one statement, and `landed` runs it before throwing, `lost` throws without.
 *
 * @example
 * ```ts
 * const faulty = commitFaultPool(url, 'landed', (sql) => sql.some((s) => s.includes('fino_workflow_history')));
 * const store = postgresWorkflowStore(faulty.pool, { schema });
 * // … drive runs; faulty.faults counts the commits it failed …
 * await store.close();
 * await faulty.end();
 * ```
 */
import pg from 'pg';
import type { PgClientLike, PgPoolLike } from '../../src/internal/sql/index.ts';

/** Whether the failed commit was applied (`landed`) or not (`lost`). */
export type CommitFault = 'landed' | 'lost';

export interface CommitFaultPool {
  pool: PgPoolLike;
  /** How many commits it failed so far. */
  readonly faults: number;
  end(): Promise<void>;
}

/** What `pg` throws when the server ends the connection under a query. */
const dropped = () => new Error('Connection terminated unexpectedly');

export function commitFaultPool(
  url: string,
  outcome: CommitFault,
  fault: (statements: readonly string[]) => boolean,
): CommitFaultPool {
  const inner = new pg.Pool({ connectionString: url, max: 4 });
  inner.on('error', () => {});
  let faults = 0;
  const wrap = (client: pg.PoolClient): PgClientLike => {
    let statements: string[] = [];
    return {
      async query(text, values) {
        if (text === 'BEGIN') statements = [];
        else if (text !== 'COMMIT') statements.push(text);
        if (text !== 'COMMIT' || !fault(statements)) return client.query(text, values);
        await client.query(outcome === 'landed' ? 'COMMIT' : 'ROLLBACK');
        faults++;
        throw dropped();
      },
      release: (error) => client.release(error),
      on: (event, listener) => client.on(event, listener),
      removeListener: (event, listener) => client.removeListener(event, listener),
    };
  };
  const pool: PgPoolLike = {
    async query(text, values) {
      if (!fault([text])) return inner.query(text, values);
      if (outcome === 'landed') await inner.query(text, values);
      faults++;
      throw dropped();
    },
    connect: async () => wrap(await inner.connect()),
    end: () => inner.end(),
    // The driver's `error` and `acquire` listeners go to the real pool and its real connections.
    on: ((event: 'error', listener: (error: Error) => void) =>
      inner.on(event, listener)) as PgPoolLike['on'],
  };
  return {
    pool,
    get faults() {
      return faults;
    },
    end: () => inner.end(),
  };
}
