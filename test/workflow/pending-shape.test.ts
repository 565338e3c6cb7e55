/**
 * One shape for a pending decision (decision 159): a workflow's pending decision — handed
 * out by `onPending`, shown by `get(runId).pending`, returned by a decision — has the
 * pending call's fields at the top, as a session's pending call has them, with `call`
 * kept as a deprecated alias; so one approver serves both.
 */
import { describe, expect, it } from 'vitest';
import { agent } from '../../src/ai/agent/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { memoryStore, session } from '../../src/ai/session/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';
import { type PendingDecision, worker, workflow, workflowRuns } from '../../src/workflow/index.ts';
import { memoryStorePerTest } from '../helpers/workflow-store.ts';

const fresh = memoryStorePerTest();

const refund = tool({
  name: 'refund',
  description: 'Refund an order.',
  parameters: v.object({ orderId: v.string() }),
  requiresApproval: true,
  risk: 'high',
  execute: ({ orderId }: { orderId: string }) => `refunded ${orderId}`,
});

/** One approver for sessions, workflows and MCP task inputs. */
const approver = (p: { toolName: string; args: unknown; argsHash: string }) =>
  `${p.toolName} ${JSON.stringify(p.args)} ${p.argsHash.length}`;

describe('a pending decision of a workflow', () => {
  it('has the pending call at the top wherever it is shown, and the same approver reads a session', async () => {
    const store = fresh();
    const flow = workflow({
      id: 'refunds',
      run: (ctx, orderId: string) => ctx.call(refund, { orderId }),
    });
    const handedOut: PendingDecision[] = [];
    const w = worker({ store, workflows: [flow], onPending: (p) => handedOut.push(p) });
    const { runId } = await flow.start('o-1', { store });
    await w.drain();
    const [shown] = (await flow.get(runId, { store })).pending!;
    const top = {
      kind: 'approval',
      toolName: 'refund',
      args: { orderId: 'o-1' },
      risk: 'high',
      runId,
      workflowId: 'refunds',
      decisionId: '$call:refund',
    };
    expect(handedOut[0]).toMatchObject({ ...top, token: expect.any(String) });
    expect(shown).toMatchObject(top);
    expect(shown.argsHash).toBe(shown.call.argsHash); // the deprecated alias, the same call
    const { toolCallId, argsHash } = shown;
    expect(shown.call).toEqual({ ...shown.call, toolCallId, argsHash });
    expect(await workflowRuns(store).pending()).toMatchObject([top]);
    expect(approver(handedOut[0])).toBe('refund {"orderId":"o-1"} 64');
    expect(await flow.approve(handedOut[0].token, { store })).toMatchObject({
      ...top,
      decision: { approve: true },
    });

    const runs = session({
      store: memoryStore(),
      agent: agent({
        model: scriptedModel([{ toolCalls: [{ name: 'refund', args: { orderId: 'o-1' } }] }]),
        tools: [refund],
      }),
    });
    const run = await runs.start('Refund o-1');
    expect(run.status === 'suspended' && approver(run.pending[0])).toBe(
      'refund {"orderId":"o-1"} 64',
    );
  });
});
