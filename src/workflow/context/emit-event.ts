/** `ctx.emit`: events out of a run, saved once. */
import { WorkflowError } from '../errors.ts';
import type { HistoryEntry } from '../types.ts';
import { never, type ReplayEngine } from './replay-engine.ts';
import { replayedError } from './saved-result.ts';

/** `ctx.emit(name, value)`: saves an event once, for `events(runId)` to read while the run goes on. */
export async function emit(engine: ReplayEngine, name: string, value?: unknown): Promise<void> {
  if (typeof name !== 'string' || name === '' || name.length > 200) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `ctx.emit(name): expected a name of 1 to 200 characters, received ${typeof name}`,
    );
  }
  const id = engine.numberedId(`emit:${name}`);
  if (engine.meet(id, 'emit')) return;
  if (!(await engine.beginLive(id, 'emit'))) return never();
  try {
    const entry: HistoryEntry = {
      id,
      kind: 'emit',
      name,
      seq: engine.nextSeq(),
      state: 'done',
      startedAt: Date.now(),
    };
    engine.fill(entry, value, `the value of event "${name}"`);
    if (entry.error) throw replayedError(entry.error);
    if (!(await engine.write(entry))) return never();
  } finally {
    engine.liveEnded();
  }
}
