/** Durable timers: `ctx.sleep` and `ctx.sleepUntil`, their deadline fixed on first reach and saved. */
import { WorkflowError } from '../errors.ts';
import { checkDeadline } from './deadline.ts';
import { checkId } from './operation-id.ts';
import { never, type ReplayEngine } from './replay-engine.ts';

/** `ctx.sleep(id, ms)`: a durable timer `ms` from when the run first reaches it. */
export function sleep(engine: ReplayEngine, id: string, ms: number): Promise<void> {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
    return Promise.reject(
      new WorkflowError(
        'INVALID_ARGUMENT',
        `ctx.sleep("${id}", ms): expected a number of milliseconds ≥ 0, received ${String(ms)}`,
      ),
    );
  }
  return timer(engine, id, `ctx.sleep("${id}", ${ms})`, () => Date.now() + ms);
}

/** `ctx.sleepUntil(id, at)`: a durable timer until a moment. */
export function sleepUntil(engine: ReplayEngine, id: string, at: Date | number): Promise<void> {
  const time = at instanceof Date ? at.getTime() : at;
  if (typeof time !== 'number' || !Number.isFinite(time)) {
    return Promise.reject(
      new WorkflowError(
        'INVALID_ARGUMENT',
        `ctx.sleepUntil("${id}", at): expected a Date or epoch milliseconds, received ${String(at)}`,
      ),
    );
  }
  return timer(engine, id, `ctx.sleepUntil("${id}", ${time})`, () => time);
}

/** A durable timer: its deadline is fixed on first reach and saved. */
async function timer(
  engine: ReplayEngine,
  id: string,
  where: string,
  dueAt: () => number,
): Promise<void> {
  checkId(id, 'ctx.sleep');
  checkDeadline(dueAt(), where);
  let entry = engine.meet(id, 'sleep');
  if (entry?.state === 'done') return;
  if (engine.cancelling) throw engine.deliverCancel();
  if (!entry) {
    if (!(await engine.beginLive(id, 'sleep'))) return never();
    try {
      entry = engine.waitingEntry(id, 'sleep', { dueAt: dueAt() });
      if (!(await engine.write(entry))) return never();
    } finally {
      engine.liveEnded();
    }
  }
  if (Date.now() >= entry.dueAt!) {
    engine.enterLive();
    try {
      if (!(await engine.write({ ...entry, state: 'done', endedAt: Date.now() }))) return never();
    } finally {
      engine.liveEnded();
    }
    return;
  }
  return engine.block(id, { timerDueAt: entry.dueAt });
}
