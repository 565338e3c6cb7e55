/**
 * A fresh memory workflow store for each test that asks for one, closed after that test
 * (`afterEach`): the set-up every workflow test on the memory store shares.
 *
 * @example
 * ```ts
 * const freshStore = memoryStorePerTest(); // at the top of a test file
 *
 * it('runs a step once', async () => {
 *   const store = freshStore();
 *   const w = worker({ store, workflows: [flow] });
 *   // …
 * });
 * ```
 */
import { join } from 'node:path';
import { afterEach } from 'vitest';
import {
  memoryWorkflowStore,
  postgresWorkflowStore,
  sqliteWorkflowStore,
  type WorkflowStore,
} from '../../src/workflow/index.ts';
import { freshSchema } from './postgres.ts';
import { postgresForTests } from './postgres-for-tests.ts';
import { tempDir } from './temp-dir.ts';

/** Registers the closing; each call of the returned function opens a new memory store. */
export function memoryStorePerTest(): () => WorkflowStore {
  const open: WorkflowStore[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
  });
  return () => {
    const store = memoryWorkflowStore();
    open.push(store);
    return store;
  };
}

/**
 * A fresh store per test on SQLite (a new file) and on PostgreSQL (a new schema of this
 * file's throwaway server), each closed after its test: for `describe.each`, as
 * `[engine name, open]`. Each store carries `place` (`{ db, schema? }`), where a child
 * process finds it. `open()` resolves to `undefined` when no PostgreSQL server can
 * start here (the test then skips itself; with `CI=true` the start fails).
 *
 * @example
 * ```ts
 * describe.each(eachWorkflowStore('retry'))('retry (%s)', (_engine, open) => {
 *   it('…', async ({ skip }) => {
 *     const store = (await open()) ?? skip();
 *   });
 * });
 * ```
 */
export function eachWorkflowStore(
  name: string,
): Array<[string, () => Promise<WorkflowStore | undefined>]> {
  const dir = tempDir(`workflow-${name}`);
  const postgres = postgresForTests();
  const open: WorkflowStore[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
  });
  const kept = (store: WorkflowStore) => {
    open.push(store);
    return store;
  };
  let files = 0;
  return [
    [
      'SQLite',
      async () => {
        const db = join(dir, `${++files}.db`);
        return kept(Object.assign(sqliteWorkflowStore(db), { place: { db } }));
      },
    ],
    [
      'PostgreSQL',
      async () => {
        const pg = await postgres();
        if (!pg) return undefined;
        const schema = await freshSchema(pg.url);
        const store = postgresWorkflowStore(pg.url, { schema });
        return kept(Object.assign(store, { place: { db: pg.url, schema } }));
      },
    ],
  ];
}
