/** `ctx.agent` with handoffs: the target's approvals are the run's decisions, no turn billed twice. */
import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { type PendingDecision, worker, workflow } from '../../../src/workflow/index.ts';
import { memoryStorePerTest } from '../../helpers/workflow-store.ts';

const fresh = memoryStorePerTest();

describe('ctx.agent with handoffs', () => {
  it('the agent handed to finishes the child run across the park for an approval', async () => {
    const store = fresh();
    const refunded: string[] = [];
    const refund = tool({
      name: 'refund',
      parameters: v.object({ orderId: v.string() }),
      requiresApproval: true,
      execute: ({ orderId }: { orderId: string }) => {
        refunded.push(orderId);
        return `refunded ${orderId}`;
      },
    });
    const refundsModel = scriptedModel([
      { toolCalls: [{ name: 'refund', args: { orderId: 'o-3' } }] },
      'Refunded o-3.',
    ]);
    const refunds = agent({ name: 'refunds', model: refundsModel, tools: [refund] });
    const triageModel = scriptedModel([{ toolCalls: [{ name: 'transfer_to_refunds', args: {} }] }]);
    const triage = agent({ name: 'triage', model: triageModel, handoffs: [refunds] });
    const flow = workflow({ id: 'desk', run: (ctx) => ctx.agent(triage, 'Refund o-3') });
    const handedOut: PendingDecision[] = [];
    const w = worker({ store, workflows: [flow], onPending: (p) => handedOut.push(p) });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    expect(handedOut).toMatchObject([{ toolName: 'refund', args: { orderId: 'o-3' } }]);
    await flow.approve(handedOut[0].token, { store, by: 'ana' });
    await w.drain();
    expect(await flow.result(runId, { store })).toEqual({
      text: 'Refunded o-3.',
      agent: 'refunds',
    });
    expect([triageModel.requests.length, refundsModel.requests.length]).toEqual([1, 2]);
    expect(refunded).toEqual(['o-3']);
  });
});
