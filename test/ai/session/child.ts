/** Spawning the session tests' child processes (fixtures/worker.ts) and reading their answers. */
import { join } from 'node:path';
import { type Child, nodeChild } from '../../helpers/child-process.ts';

export type { Child };

const WORKER = join(import.meta.dirname, 'fixtures', 'worker.ts');

/** Starts `fixtures/worker.ts` with a command; `env` adds variables. */
export const worker = (command: Record<string, unknown>, env: Record<string, string> = {}): Child =>
  nodeChild(WORKER, command, env);
