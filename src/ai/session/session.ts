/**
 * `session()`: durable runs of one agent over one store, assembled from its parts — what
 * they share (`session-core.ts`), runs (`session-runs.ts`), decisions
 * (`session-decisions.ts`) and threads (`session-threads.ts`). Its interface and
 * options are in `session-api.ts`.
 */

import { sessionEvents } from './run-events.ts';
import type { Session, SessionOptions } from './session-api.ts';
import { sessionCore } from './session-core.ts';
import { sessionDecisions } from './session-decisions.ts';
import { sessionRuns } from './session-runs.ts';
import { sessionThreads } from './session-threads.ts';

export type {
  ContinueOptions,
  DecideOptions,
  DrainReport,
  EventsOptions,
  Session,
  SessionOptions,
  StartOptions,
} from './session-api.ts';

/**
 * Durable, exactly-once runs of an agent: every checkpoint of the run (each model turn,
 * each tool result) is stored before more side effects happen; a suspended run waits in
 * the store, with one single-use token per pending call, for decisions that may come
 * days later from another process; approving continues it there. Runs held by a worker
 * that died are taken over when its lease expires, and completed tool calls are never
 * run again.
 *
 * @example
 * ```ts
 * import { agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { tool } from 'fino:ai/tool';
 * import { memoryStore, session } from 'fino:ai/session';
 * import { v } from 'fino:validate';
 *
 * const remove = tool({
 *   name: 'remove_file',
 *   description: 'Delete a file.',
 *   parameters: v.object({ path: v.string() }),
 *   requiresApproval: true,
 *   execute: async ({ path }: { path: string }) => `deleted ${path}`,
 * });
 * const model = scriptedModel([
 *   { toolCalls: [{ name: 'remove_file', args: { path: 'old.log' } }] },
 *   'Deleted old.log.',
 * ]);
 * const runs = session({ store: memoryStore(), agent: agent({ model, tools: [remove] }) });
 *
 * const run = await runs.start('Delete old.log');
 * if (run.status === 'suspended') {
 *   const done = await runs.approve(run.pending[0].token!, { by: 'ana', note: 'fine' });
 *   console.log(done.status, done.status === 'done' && done.text); // done Deleted old.log.
 * }
 * ```
 */
export function session(options: SessionOptions): Session {
  const core = sessionCore(options);
  return {
    ...sessionRuns(core),
    ...sessionDecisions(core),
    ...sessionThreads(core),
    ...sessionEvents(core),
  };
}
