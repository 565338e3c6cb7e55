/** `ctx.child`: a run of another workflow, started once and awaited durably. */
import { stepFailure, WorkflowError } from '../errors.ts';
import { childRunId as childRunIdOf, MAX_CHILD_DEPTH } from '../run-id.ts';
import type { HistoryEntry, WorkflowStore } from '../types.ts';
import type { Workflow } from '../workflow.ts';
import { afterParentCancel, cancelPolicyOf } from './child-cancel.ts';
import type { ChildOptions } from './context-types.ts';
import { never, type ReplayEngine } from './replay-engine.ts';

/**
 * `ctx.child(workflow, input, { id, onParentCancel })`: starts a run of another workflow
 * once (its run id is `<runId>/<child id>`, hashed when too long: `childRunId`) and waits
 * for its end, which wakes this run; a cancelled child throws `CHILD_CANCELLED`. When
 * this run is cancelled, the child's policy applies (`child-cancel.ts`).
 * `INVALID_ARGUMENT` past {@link MAX_CHILD_DEPTH} levels of children.
 */
export async function child<Input, Output>(
  engine: ReplayEngine,
  workflow: Workflow<Input, Output>,
  input: Input,
  options?: ChildOptions,
): Promise<Output> {
  if (!workflow || typeof workflow.start !== 'function' || typeof workflow.id !== 'string') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      'ctx.child(workflow): expected a workflow made by workflow()',
    );
  }
  const policy = cancelPolicyOf(options?.onParentCancel);
  const id = engine.autoId(options?.id, 'child', workflow.id, 'ctx.child');
  const where = `child workflow "${workflow.id}" (${id})`;
  let entry = engine.meet(id, 'child');
  if (entry?.state === 'done') return engine.replay(entry) as Output;
  const childRunId = childRunIdOf(engine.runId, id);
  if (engine.cancelling) {
    if (!entry) throw engine.deliverCancel();
    return afterParentCancel(engine, id, childRunId, policy);
  }
  const start = {
    store: engine.deps.store,
    runId: childRunId,
    parentRunId: engine.runId,
    onParentCancel: policy,
  };
  if (!entry) {
    if (!(await engine.beginLive(id, 'child'))) return never();
    try {
      await checkDepth(engine.deps.store, engine.runId, where);
      entry = engine.waitingEntry(id, 'child', { name: childRunId });
      // The history entry first: a crash between the two starts the child on replay, once (its id is fixed).
      if (!(await engine.write(entry))) return never();
      await workflow.start(input, start);
    } finally {
      engine.liveEnded();
    }
  }
  engine.enterLive();
  try {
    const child = await engine.deps.store.latestInChain(childRunId); // a child that continued as new: its chain's last run
    if (!child) {
      await workflow.start(input, start);
      return engine.waitForChild(id, childRunId);
    }
    if (child.status === 'running' || child.status === 'waiting')
      return engine.waitForChild(id, childRunId);
    const done: HistoryEntry = { ...entry, state: 'done', endedAt: Date.now() };
    if (child.status === 'done') {
      if (child.output !== undefined) done.value = child.output;
    } else {
      done.error =
        child.status === 'cancelled'
          ? { name: 'WorkflowError', code: 'CHILD_CANCELLED', message: `${where} was cancelled` }
          : stepFailure(where, child.error?.message ?? 'unknown error');
    }
    return (await engine.settle(done)) as Output;
  } finally {
    engine.liveEnded();
  }
}

/**
 * `INVALID_ARGUMENT` when a child of `runId` would nest deeper than {@link MAX_CHILD_DEPTH}
 * (a workflow that starts itself stops here); reads the chain of parents, at most that many.
 */
async function checkDepth(store: WorkflowStore, runId: string, where: string): Promise<void> {
  let depth = 0;
  for (let run = await store.get(runId); run?.parentRunId !== undefined; depth++) {
    if (depth + 1 >= MAX_CHILD_DEPTH) {
      throw new WorkflowError(
        'INVALID_ARGUMENT',
        `${where}: run "${runId}" is already ${MAX_CHILD_DEPTH} levels of child runs deep, the most allowed; does a workflow start itself without end?`,
        { runId },
      );
    }
    run = await store.get(run.parentRunId);
  }
}
