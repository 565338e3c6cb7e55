/**
 * A child run when its parent is cancelled (decision 232): the policy given to
 * `ctx.child` (`cancel`, `abandon`, `wait`), and what the parent's `ctx.child` does once
 * it knows it is cancelled. The store cancels `cancel` children with the parent, in one
 * transaction (`sql/cancel-children.ts`); this side also cancels a child started after
 * that transaction, and makes the parent wait for the children it must wait for.
 */
import { WorkflowError } from '../errors.ts';
import type { ChildCancelPolicy } from '../types.ts';
import { never, type ReplayEngine } from './replay-engine.ts';

const POLICIES: readonly ChildCancelPolicy[] = ['cancel', 'abandon', 'wait'];

/** The policy of `ctx.child`'s `onParentCancel`; `INVALID_ARGUMENT` naming the allowed ones. */
export function cancelPolicyOf(given: unknown): ChildCancelPolicy {
  if (given === undefined) return 'cancel';
  if (POLICIES.includes(given as ChildCancelPolicy)) return given as ChildCancelPolicy;
  throw new WorkflowError(
    'INVALID_ARGUMENT',
    `ctx.child: onParentCancel: expected "cancel", "abandon" or "wait", received ${typeof given === 'string' ? `"${given}"` : typeof given}`,
  );
}

/**
 * Per execution of a cancelled run, whether it must wait for each child its code awaits:
 * a child that ended throws `CANCELLED` only once no other child it awaits must be waited for.
 */
const waitsOfExecution = new WeakMap<ReplayEngine, Array<Promise<boolean>>>();

/**
 * `ctx.child` in a cancelled run whose child was started (its entry waits). The child is
 * cancelled (policy `cancel`, when not yet), and the run parks until it ends (`cancel`,
 * `wait`); a child that ended, was never created, or is abandoned throws `CANCELLED` —
 * once every other child awaited in this execution has ended too, so the parent unwinds
 * after its children. The child's entry stays waiting: every replay takes this path.
 */
export async function afterParentCancel(
  engine: ReplayEngine,
  id: string,
  childRunId: string,
  given: ChildCancelPolicy,
): Promise<never> {
  const mustWait = cancelledChild(engine, childRunId, given);
  const waits = waitsOfExecution.get(engine) ?? [];
  waitsOfExecution.set(engine, [...waits, mustWait]);
  engine.enterLive();
  try {
    if (await mustWait) return engine.block(id, { child: childRunId, afterCancel: true });
    const all = await Promise.all(waitsOfExecution.get(engine)!);
    if (all.some(Boolean) || engine.ended) return never(); // parks on the others
    throw engine.deliverCancel();
  } finally {
    engine.liveEnded();
  }
}

/**
 * Whether a cancelled run must wait for its child `childRunId`: not when it ended, was
 * never created or is abandoned; a `cancel` child not yet cancelled is cancelled here
 * (one started after the store cancelled the parent's children).
 */
async function cancelledChild(
  engine: ReplayEngine,
  childRunId: string,
  given: ChildCancelPolicy,
): Promise<boolean> {
  const store = engine.deps.store;
  const child = await store.get(childRunId);
  if (!child || (child.status !== 'running' && child.status !== 'waiting')) return false;
  const policy = child.onParentCancel ?? given;
  if (policy === 'abandon') return false;
  if (policy === 'wait' || child.cancelRequested) return true;
  const note = `its parent run "${engine.runId}" was cancelled`;
  return store.cancel(childRunId, { note }).then(
    () => true,
    (error: unknown) => {
      if ((error as WorkflowError).code === 'RUN_FINISHED') return false; // it ended meanwhile
      throw error;
    },
  );
}
