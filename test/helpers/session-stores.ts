/**
 * The session stores a test file runs the same tests on: memory, a SQLite file (a new
 * one each time, in a temporary folder removed after the file's tests) and PostgreSQL (a
 * fresh schema on the file's throwaway server each time; `undefined` without a server,
 * so the test skips). Each opener gives a new, empty store; the test closes it.
 *
 * @example
 * ```ts
 * const open = sessionStores('hostile-session'); // at the top of a test file
 * describe.each([
 *   ['memory', open.memory],
 *   ['sqlite', open.sqlite],
 *   ['postgres', open.postgres],
 * ])('the %s store', (_name, openStore) => {
 *   it('keeps a run', withStore(openStore, async (store) => {
 *     // … the store is closed after this
 *   }));
 * });
 * ```
 */
import { join } from 'node:path';
import { memoryStore, postgresStore, type Store, sqliteStore } from '../../src/ai/session/index.ts';
import { freshSchema } from './postgres.ts';
import { postgresForTests } from './postgres-for-tests.ts';
import { tempDir } from './temp-dir.ts';

/** Opens a new store of one engine; `undefined` when the engine is not available here. */
export type OpenStore = () => Promise<Store | undefined>;

/** Makes the folder (`fino-<name>-…`) and starts the server for this file's stores. */
export function sessionStores(name: string): Record<'memory' | 'sqlite' | 'postgres', OpenStore> {
  const dir = tempDir(name);
  const postgres = postgresForTests();
  let files = 0;
  return {
    memory: async () => memoryStore(),
    sqlite: async () => sqliteStore(join(dir, `store-${files++}.db`)),
    postgres: async () => {
      const server = await postgres();
      return server && postgresStore(server.url, { schema: await freshSchema(server.url) });
    },
  };
}

/**
 * A test body on a new store from `open`, closed after the body however it ends; the
 * test skips when `open` gives no store (no PostgreSQL here).
 */
export const withStore =
  (open: OpenStore, body: (store: Store) => Promise<void>) =>
  async (ctx: { skip(): void }): Promise<void> => {
    const store = await open();
    if (!store) return ctx.skip();
    try {
      await body(store);
    } finally {
      await store.close();
    }
  };
