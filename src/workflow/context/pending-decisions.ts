/**
 * Parking a run on pending decisions (an approval, a suspension's answer), as in
 * `fino:ai/session`: single-use tokens of which the store keeps only the hash, handed out once.
 */
import type { PendingCall } from '../../ai/agent/index.ts';
import { hashToken, newToken } from '../../internal/durable/index.ts';
import { toCheckpoint } from '../json-value.ts';
import type { HistoryEntry } from '../types.ts';
import { never, type ReplayEngine } from './replay-engine.ts';

/**
 * Records `entry` (waiting, with its round) and creates its pending decisions in one
 * transaction, hands each token out once, and waits for the decisions.
 */
export async function suspendOn(
  engine: ReplayEngine,
  entry: HistoryEntry,
  round: number,
  pending: Array<{ decisionId: string; call: PendingCall }>,
): Promise<never> {
  const decisionIds = pending.map((p) => p.decisionId);
  const written: HistoryEntry =
    entry.value === undefined
      ? { ...entry, value: JSON.stringify({ round, decisionId: decisionIds[0] }) }
      : entry;
  const tokens = pending.map(() => newToken());
  toCheckpoint(
    pending.map((p) => p.call),
    `the pending calls of "${entry.id}"`,
    engine.deps.maxValueBytes,
  );
  const lease = await engine.deps.store.suspend(
    engine.runId,
    engine.deps.owner,
    written,
    pending.map((p, i) => ({ ...p, tokenHash: hashToken(tokens[i]) })),
    engine.deps.leaseMs,
  );
  if (!engine.learn(lease)) return never();
  engine.saved(written);
  pending.forEach((p, i) => {
    try {
      engine.deps.onPending?.({
        ...p.call,
        runId: engine.runId,
        workflowId: engine.workflowId,
        decisionId: p.decisionId,
        call: p.call,
        token: tokens[i],
      });
    } catch {
      // A throwing listener loses nothing: the decision can still be named by run and decision id.
    }
  });
  return engine.block(entry.id, { decisions: decisionIds });
}
