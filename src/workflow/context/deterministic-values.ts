/**
 * `ctx.now()`, `ctx.random()`, `ctx.uuid()`: values made up once, saved, and returned
 * unchanged on every replay.
 */
import { randomUUID } from 'node:crypto';
import type { HistoryEntry } from '../types.ts';
import { AUTO } from './operation-id.ts';
import { never, type ReplayEngine } from './replay-engine.ts';

/** `ctx.now()`: the clock, read once. */
export async function now(engine: ReplayEngine): Promise<Date> {
  return new Date((await madeUpValue(engine, 'now', () => Date.now())) as number);
}

/** `ctx.random()`: a number in [0, 1), drawn once. */
export function random(engine: ReplayEngine): Promise<number> {
  return madeUpValue(engine, 'random', () => Math.random()) as Promise<number>;
}

/** `ctx.uuid()`: a v4 UUID, made once. */
export function uuid(engine: ReplayEngine): Promise<string> {
  return madeUpValue(engine, 'uuid', () => randomUUID()) as Promise<string>;
}

/** A saved value made up once (`now`, `random`, `uuid`). */
/** A saved value made up once (`now`, `random`, `uuid`). */
async function madeUpValue(
  engine: ReplayEngine,
  kind: 'now' | 'random' | 'uuid',
  make: () => unknown,
): Promise<unknown> {
  const id = `${AUTO}${kind}#${engine.occurrence(kind)}`;
  const saved = engine.meet(id, kind);
  if (saved) return engine.replay(saved);
  if (!(await engine.beginLive(id, kind))) return never();
  try {
    const value = make();
    const entry: HistoryEntry = {
      id,
      kind,
      seq: engine.nextSeq(),
      state: 'done',
      value: JSON.stringify(value),
      startedAt: Date.now(),
    };
    if (!(await engine.write(entry))) return never();
    return value;
  } finally {
    engine.liveEnded();
  }
}
