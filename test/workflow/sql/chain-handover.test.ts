/**
 * What a run hands over as it continues as new (decision 254), on SQLite and PostgreSQL:
 * its pending decisions — an approval its code stopped waiting for — are withdrawn with an
 * audit line, not left open where no run will take them: the inbox no longer lists them
 * and a decision on one is refused with `ALREADY_DECIDED` saying why.
 */
import { describe, expect, it } from 'vitest';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import {
  type PendingDecision,
  worker,
  workflow,
  workflowRuns,
} from '../../../src/workflow/index.ts';
import { eachWorkflowStore } from '../../helpers/workflow-store.ts';

const refund = tool({
  name: 'refund',
  description: 'Refund an order.',
  parameters: v.object({ orderId: v.string() }),
  requiresApproval: true,
  execute: ({ orderId }: { orderId: string }) => `refunded ${orderId}`,
});

/** Asks to refund, but moves on (continues as new) when `skip` comes first. */
const desk = workflow({
  id: 'refund-desk',
  async run(ctx, generation: number) {
    if (generation > 0) return generation;
    const asked = ctx.call(refund, { orderId: 'o-1' }); // asked first: it goes live before the wait
    const skipped = ctx.waitForSignal('skip').then(() => 'skipped' as const);
    const outcome = await Promise.race([asked, skipped]);
    if (outcome === 'skipped') return ctx.continueAsNew(generation + 1);
    return -1;
  },
});

describe.each(eachWorkflowStore('chain-handover'))('a switch hands over (%s)', (_engine, open) => {
  it('withdraws the pending decisions of a run that continues as new, audited', async ({
    skip,
  }) => {
    const store = (await open()) ?? skip();
    const handedOut: PendingDecision[] = [];
    const w = worker({ store, workflows: [desk], pollMs: 10, onPending: (p) => handedOut.push(p) });
    await w.start();
    try {
      const { runId } = await desk.start(0, { store });
      await expect.poll(() => handedOut.length, { timeout: 15_000 }).toBe(1);
      expect(await workflowRuns(store).pending()).toHaveLength(1);
      await desk.signal({ store, runId, name: 'skip' });
      expect(await desk.result(runId, { store })).toBe(1);
      const first = await desk.get(runId, { store });
      expect(first.status).toBe('continued');
      expect(first.audit).toMatchObject([
        {
          action: 'cancel',
          decisionId: '$call:refund',
          note: `withdrawn: the run continued as new as "${first.continuedTo}"`,
        },
      ]);
      expect(await workflowRuns(store).pending()).toEqual([]);
      await expect(desk.approve(handedOut[0].token, { store })).rejects.toMatchObject({
        code: 'ALREADY_DECIDED',
        message: expect.stringContaining('(cancel at '),
      });
    } finally {
      await w.stop();
    }
  });
});
