/** `ctx.waitForSignal`: a durable wait for a named signal, consumed exactly once. */

import { WorkflowError } from '../errors.ts';
import type { WaitForSignalOptions } from './context-types.ts';
import { checkDeadline } from './deadline.ts';
import { checkId } from './operation-id.ts';
import { never, type ReplayEngine } from './replay-engine.ts';

/**
 * `ctx.waitForSignal(name, { timeoutMs, id })`: consumes one signal sent to the run (before
 * or after the wait began) exactly once, or times out with `undefined`.
 */
export async function waitForSignal(
  engine: ReplayEngine,
  name: string,
  options: WaitForSignalOptions | undefined,
): Promise<unknown> {
  if (typeof name !== 'string' || name === '') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `ctx.waitForSignal(name): expected a signal name, received ${String(name)}`,
    );
  }
  if (engine.deps.signals && !engine.deps.signals.has(name)) {
    throw new WorkflowError(
      'UNKNOWN_SIGNAL',
      `ctx.waitForSignal("${name}"): the workflow "${engine.workflowId}" declares no signal "${name}" (it declares ${[...engine.deps.signals].map((s) => `"${s}"`).join(', ') || 'none'})`,
    );
  }
  const timeoutMs = options?.timeoutMs;
  if (
    timeoutMs !== undefined &&
    (typeof timeoutMs !== 'number' || !(timeoutMs >= 0) || !Number.isFinite(timeoutMs))
  ) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `ctx.waitForSignal("${name}"): timeoutMs: expected a number of milliseconds ≥ 0, received ${String(timeoutMs)}`,
    );
  }
  if (timeoutMs !== undefined)
    checkDeadline(
      Date.now() + timeoutMs,
      `ctx.waitForSignal("${name}", { timeoutMs: ${timeoutMs} })`,
    );
  let id = options?.id;
  if (id === undefined) id = engine.numberedId(`signal:${name}`);
  else checkId(id, 'ctx.waitForSignal');
  let entry = engine.meet(id, 'signal');
  if (entry?.state === 'done') return entry.timedOut ? undefined : engine.replay(entry);
  if (engine.cancelling) throw engine.deliverCancel();
  const fresh = !entry;
  if (fresh && !(await engine.beginLive(id, 'signal'))) return never();
  if (!fresh) engine.enterLive();
  try {
    entry ??= engine.waitingEntry(id, 'signal', {
      name,
      ...(timeoutMs === undefined ? {} : { dueAt: Date.now() + timeoutMs }),
    });
    const taken = await engine.deps.store.consumeSignal(
      engine.runId,
      engine.deps.owner,
      entry,
      engine.deps.leaseMs,
    );
    if (!engine.learn(taken)) return never();
    if (taken.consumed) {
      engine.saved(taken.entry!);
      return engine.replay(taken.entry!);
    }
    if (entry.dueAt !== undefined && Date.now() >= entry.dueAt) {
      if (!(await engine.write({ ...entry, state: 'done', timedOut: true, endedAt: Date.now() })))
        return never();
      return undefined;
    }
    if (fresh && !(await engine.write(entry))) return never();
  } finally {
    engine.liveEnded();
  }
  return engine.block(id, {
    signal: name,
    ...(entry.dueAt === undefined ? {} : { timerDueAt: entry.dueAt }),
  });
}
