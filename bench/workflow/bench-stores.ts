/**
 * The stores a workflow bench measures on, set up one way for all of them: a SQLite file
 * in a temporary folder, and a throwaway PostgreSQL server with its durable defaults when
 * its binaries are there (`test/helpers/postgres.ts`). `close()` stops the server and
 * removes the folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  postgresWorkflowStore,
  sqliteWorkflowStore,
  type WorkflowStore,
} from '../../src/workflow/index.ts';
import { freshSchema, type PostgresServer, startPostgres } from '../../test/helpers/postgres.ts';

/** An engine to measure on: its name in the results, and a fresh store of it. */
export type BenchEngine = [name: string, open: () => Promise<WorkflowStore>];

export interface BenchStores {
  /** The temporary folder of the SQLite files. */
  dir: string;
  /** The PostgreSQL server, when one could start. */
  server: PostgresServer | undefined;
  /** SQLite first, then PostgreSQL if its server started; each `open` makes a fresh store. */
  engines: BenchEngine[];
  /** Stops the server and removes the folder. */
  close(): Promise<void>;
}

/**
 * Sets up the engines of a bench: `prefix` names the temporary folder, `names` the
 * engines in the results; `postgres: false` starts no server.
 */
export async function benchStores(
  prefix: string,
  { names = ['SQLite', 'PostgreSQL'], postgres = true } = {},
): Promise<BenchStores> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const server = postgres ? await startPostgres({ durable: true }) : undefined;
  const engines: BenchEngine[] = [
    [names[0], async () => sqliteWorkflowStore(join(dir, `${Math.random()}.db`))],
  ];
  if (server) {
    engines.push([
      names[1],
      async () => postgresWorkflowStore(server.url, { schema: await freshSchema(server.url) }),
    ]);
  }
  return {
    dir,
    server,
    engines,
    async close() {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
