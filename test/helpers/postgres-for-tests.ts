/**
 * The throwaway PostgreSQL server of one test file (or one `describe`), from
 * {@link startPostgres}: started at once, stopped after those tests (`afterAll`), so no
 * test file writes its own start and stop. Every call of the returned function resolves
 * to that one server, or to `undefined` when none is available (the test skips), and
 * rejects where `startPostgres` throws (no binaries with `CI=true`).
 *
 * @example
 * ```ts
 * const postgres = postgresForTests(); // at the top of a test file
 *
 * it('keeps a run on PostgreSQL', async (ctx) => {
 *   const server = await postgres();
 *   if (!server) return ctx.skip();
 *   const store = postgresStore(server.url, { schema: await freshSchema(server.url) });
 *   // …
 * });
 * ```
 */
import { afterAll } from 'vitest';
import { type PostgresServer, startPostgres } from './postgres.ts';

/** Starts this file's server (`durable` as in `startPostgres`); resolves to it on every call. */
export function postgresForTests(
  options: { durable?: boolean } = {},
): () => Promise<PostgresServer | undefined> {
  const started = startPostgres(options);
  // A failed start is reported by the tests that await it, not as an unhandled rejection.
  started.catch(() => {});
  afterAll(async () => {
    const server = await started.catch(() => undefined);
    await server?.stop();
  });
  return () => started;
}
