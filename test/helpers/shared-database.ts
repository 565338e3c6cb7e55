/**
 * A new database for each test that runs several processes over one store: a SQLite
 * file in this test file's temporary folder, or a fresh schema on this file's throwaway
 * PostgreSQL server (`undefined` when there is none: the test skips). Call
 * `sharedDatabases` at the top of a test file: it registers the clean-up of both.
 *
 * @example
 * ```ts
 * const shared = sharedDatabases('my-processes');
 *
 * it.each(['sqlite', 'postgres'] as const)('… on %s', async (engine, ctx) => {
 *   const db = await shared(engine);
 *   if (!db) return ctx.skip();
 *   const child = nodeChild(WORKER, { db: db.db, schema: db.schema });
 *   const store = db.open(); // this process's own connection
 * });
 * ```
 */
import { join } from 'node:path';
import type { Store } from '../../src/ai/session/index.ts';
import { freshSchema } from './postgres.ts';
import { postgresForTests } from './postgres-for-tests.ts';
import { type StoreAddress, storeOf } from './store-of.ts';
import { tempDir } from './temp-dir.ts';

/** One database processes share: what a child is told (`db`, `schema`), and how this process opens it. */
export interface SharedDatabase extends StoreAddress {
  open(): Store;
  /** The test file's temporary folder, for other files its processes share. */
  dir: string;
}

export type SharedEngine = 'sqlite' | 'postgres';

/** The maker of this test file's shared databases, one new database per call. */
export function sharedDatabases(
  name: string,
): (engine: SharedEngine) => Promise<SharedDatabase | undefined> {
  const dir = tempDir(name);
  const postgres = postgresForTests();
  let files = 0;
  return async (engine) => {
    if (engine === 'sqlite') {
      const address = { db: join(dir, `shared-${files++}.db`) };
      return { ...address, dir, open: () => storeOf(address) };
    }
    const server = await postgres();
    if (!server) return undefined;
    const address = { db: server.url, schema: await freshSchema(server.url) };
    return { ...address, dir, open: () => storeOf(address) };
  };
}
