/**
 * Waiting for a dead worker's lease to run out, so another process may claim its run:
 * the session crash tests kill a worker and continue its run elsewhere.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../../src/ai/session/index.ts';

/** Resolves once the run is no longer `running` or its lease has expired. */
export async function leaseExpired(store: Store, runId: string): Promise<void> {
  for (;;) {
    const run = await store.get(runId);
    if (run?.status !== 'running' || (run.leaseExpiresAt ?? 0) < Date.now() - 5) return;
    await sleep(25);
  }
}
