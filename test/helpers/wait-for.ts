/**
 * Waiting for a condition another process brings about (a row written, a page's message
 * complete), never for a fixed time: asked every 10 ms, failing with what was awaited
 * after `ms` (generous: the machine may be loaded).
 *
 * @example
 * ```ts
 * await waitFor(async () => (await store.get(runId)) !== undefined, 'the run to be stored');
 * ```
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves once `condition()` holds; rejects naming `what` after `ms` (default 30 s). */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  ms = 30_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(10);
  }
}
