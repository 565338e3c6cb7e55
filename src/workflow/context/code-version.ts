/** `ctx.version`: lets code change safely under running runs. */
import { WorkflowError } from '../errors.ts';
import type { HistoryEntry } from '../types.ts';
import { AUTO, checkId } from './operation-id.ts';
import { never, type ReplayEngine } from './replay-engine.ts';

/**
 * `ctx.version(changeId, { min, max })`: the version of a code change this run follows —
 * `max` for a run that reaches the change first, `min` for one whose history predates it.
 */
export async function version(
  engine: ReplayEngine,
  changeId: string,
  range: { min: number; max: number },
): Promise<number> {
  checkId(changeId, 'ctx.version');
  const { min, max } = range ?? ({} as { min: number; max: number });
  if (!Number.isInteger(min) || !Number.isInteger(max) || min > max) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `ctx.version("${changeId}"): expected whole numbers with min ≤ max, received min ${String(min)}, max ${String(max)}`,
    );
  }
  const id = `${AUTO}version:${changeId}`;
  const saved = engine.meet(id, 'version');
  if (saved) {
    const version = engine.replay(saved) as number;
    if (version < min || version > max) {
      return engine.fail(
        `ctx.version("${changeId}") supports versions ${min} to ${max}, but this run follows version ${version}: code that could replay it was removed`,
      );
    }
    return version;
  }
  // A history with entries still to meet was written by code that predates the change.
  const version = engine.unmetCount > 0 ? min : max;
  const entry: HistoryEntry = {
    id,
    kind: 'version',
    seq: engine.nextSeq(),
    state: 'done',
    value: JSON.stringify(version),
    startedAt: Date.now(),
  };
  engine.enterLive();
  try {
    if (!(await engine.write(entry))) return never();
  } finally {
    engine.liveEnded();
  }
  return version;
}
