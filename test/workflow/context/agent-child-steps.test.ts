/**
 * `ctx.agent` with an agent that falls over and plans its steps: parked for an approval
 * and resumed by the worker, the hook is asked once per step and its settings hold
 * after the resume, the step falls over to the second model, and no model request is
 * repeated.
 */
import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { ModelError, scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { type PendingDecision, worker, workflow } from '../../../src/workflow/index.ts';
import { memoryStorePerTest } from '../../helpers/workflow-store.ts';

const fresh = memoryStorePerTest();

describe('ctx.agent with fallbackModels and prepareStep', () => {
  it('parks for an approval and resumes: each step planned once, falling over, no request repeated', async () => {
    const store = fresh();
    const refunded: string[] = [];
    const refund = tool({
      name: 'refund',
      description: 'Refund an order.',
      parameters: v.object({ orderId: v.string() }),
      requiresApproval: true,
      execute: ({ orderId }: { orderId: string }) => {
        refunded.push(orderId);
        return `refunded ${orderId}`;
      },
    });
    const overloaded = new ModelError('openai: 503 overloaded', {
      provider: 'openai',
      status: 503,
      retryable: true,
    });
    const gpt = scriptedModel(
      [{ toolCalls: [{ name: 'refund', args: { orderId: 'o-9' } }] }, overloaded],
      { id: 'openai:gpt-4.1' },
    );
    const claude = scriptedModel(['Refunded o-9.'], { id: 'anthropic:claude-sonnet-4-5' });
    const planned: number[] = [];
    const support = agent({
      model: gpt,
      fallbackModels: [claude],
      tools: [refund],
      prepareStep: ({ step }) => {
        planned.push(step);
        return step === 0 ? { toolChoice: 'required' } : { activeTools: [] };
      },
    });
    const flow = workflow({
      id: 'support-fallback',
      async run(ctx) {
        const result = await ctx.agent(support, 'Refund order o-9');
        return result.text;
      },
    });
    const handedOut: PendingDecision[] = [];
    const w = worker({ store, workflows: [flow], onPending: (p) => handedOut.push(p) });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    expect((await flow.get(runId, { store })).status).toBe('waiting');
    await flow.approve(handedOut[0].token, { store, by: 'ana' });
    await w.drain();
    expect(await flow.result(runId, { store })).toBe('Refunded o-9.');
    expect(refunded).toEqual(['o-9']);
    expect(gpt.requests).toHaveLength(2);
    expect(claude.requests).toHaveLength(1);
    expect(planned).toEqual([0, 1]);
    // Step 0 as planned for it, step 1 (after the resume) with no tools, answered by Claude.
    expect(gpt.requests[0].toolChoice).toBe('required');
    expect(gpt.requests[1].tools).toBeUndefined();
    expect(claude.requests[0].tools).toBeUndefined();
  });
});
