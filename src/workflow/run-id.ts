/**
 * Run ids: how long one may be, and the id of a child run, derived from its parent's run
 * id and the `ctx.child` id so that every replay of the parent names the same child.
 * Decision 179.
 */
import { sha256Hex } from '../internal/sha256.ts';

/** The longest run id, given to `start` or derived for a child run. */
export const MAX_RUN_ID_CHARS = 200;

/**
 * How deep child runs may nest: a run started by `ctx.child` of a run started by
 * `ctx.child` … at most this many levels below the run a caller started.
 */
export const MAX_CHILD_DEPTH = 32;

/**
 * The run id of the child `childId` of run `parentRunId`: `<parentRunId>/<childId>`, or,
 * when that is longer than {@link MAX_RUN_ID_CHARS}, its start and `~` and the SHA-256 of
 * the whole (the same on every replay, and one per parent and child id).
 */
export function childRunId(parentRunId: string, childId: string): string {
  const joined = `${parentRunId}/${childId}`;
  if (joined.length <= MAX_RUN_ID_CHARS) return joined;
  const digest = sha256Hex(joined);
  return `${joined.slice(0, MAX_RUN_ID_CHARS - digest.length - 1)}~${digest}`;
}
