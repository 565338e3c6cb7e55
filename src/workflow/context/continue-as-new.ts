/**
 * `ctx.continueAsNew(input)` (decision 229): the run ends, and a new run of the same
 * workflow starts with `input` and an empty history, in one transaction the worker makes
 * once the code has unwound (`worker/continue-run.ts`). Nothing is checkpointed here: a
 * replay reaches the call again with the same input, and a crash before the transaction
 * continues the run on the next claim.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { toCheckpoint } from '../json-value.ts';
import type { ReplayEngine } from './replay-engine.ts';

/** What the code asked for: the successor's input as JSON text (absent for `undefined`). */
export interface Continuation {
  input?: string;
}

/**
 * Thrown by `ctx.continueAsNew` so that the code unwinds (its `finally` blocks run); the
 * run continues as new however the code ends — catching this does not undo it.
 */
export class ContinueAsNew extends Error {
  override name = 'ContinueAsNew';
}

/** The continuation each execution asked for, the first one only. */
const requested = new WeakMap<ReplayEngine, Continuation>();

/** `ctx.continueAsNew(input)`: records the continuation and unwinds the code. */
export async function continueAsNew(engine: ReplayEngine, input: unknown): Promise<never> {
  if (engine.cancelling) throw engine.deliverCancel();
  const text = toCheckpoint(input, 'the input of ctx.continueAsNew', engine.deps.maxValueBytes);
  // As before a live operation: once replay has settled, an unmet entry means the code changed.
  for (let turn = 0; engine.unmetCount > 0 && turn < 3; turn++) await nextTurn();
  if (engine.unmetCount > 0) {
    engine.fail(
      `the code reached ctx.continueAsNew before operations the history holds: the workflow's code changed under a running run (guard the change with ctx.version())`,
    );
  }
  if (!requested.has(engine)) requested.set(engine, text === undefined ? {} : { input: text });
  throw new ContinueAsNew(`workflow run "${engine.runId}" continues as new`);
}

/** The continuation an execution asked for, if it did. */
export const continuationOf = (engine: ReplayEngine): Continuation | undefined =>
  requested.get(engine);
