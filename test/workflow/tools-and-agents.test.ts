/**
 * Tools, approvals and agents inside workflows: the tool_result contract, stable
 * idempotency keys, pending decisions with single-use tokens decided exactly once, a
 * suspension's answer reaching the tool as ctx.resumeValue, and an agent as a durable child.
 */
import { describe, expect, it } from 'vitest';
import { agent } from '../../src/ai/agent/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';
import {
  type PendingDecision,
  type WorkflowError,
  worker,
  workflow,
} from '../../src/workflow/index.ts';
import { memoryStorePerTest } from '../helpers/workflow-store.ts';

const fresh = memoryStorePerTest();

const executions: Array<{ orderId: string; key?: string; resumeValue?: unknown }> = [];
const refund = tool({
  name: 'refund',
  description: 'Refund an order.',
  parameters: v.object({ orderId: v.string() }),
  requiresApproval: true,
  risk: 'high',
  execute: ({ orderId }: { orderId: string }, ctx) => {
    executions.push({ orderId, key: ctx.idempotencyKey });
    return `refunded ${orderId}`;
  },
});
const lookup = tool({
  name: 'lookup',
  description: 'Look an order up.',
  parameters: v.object({ orderId: v.string() }),
  execute: ({ orderId }: { orderId: string }, ctx) => {
    executions.push({ orderId, key: ctx.idempotencyKey });
    return `order ${orderId}: 2 items`;
  },
});
const askSize = tool({
  name: 'ask_size',
  description: 'Ask the customer for a size.',
  parameters: v.object({}),
  execute: (_args: object, ctx) => {
    if (ctx.resumeValue === undefined) ctx.suspend('Which size?', { choices: ['S', 'M', 'L'] });
    executions.push({ orderId: '-', resumeValue: ctx.resumeValue });
    return `size ${String(ctx.resumeValue)}`;
  },
});

describe('ctx.call', () => {
  it('calls a tool once with the tool_result contract and a stable idempotency key', async () => {
    const store = fresh();
    executions.length = 0;
    const flow = workflow({
      id: 'lookup',
      async run(ctx) {
        const found = await ctx.call(lookup, { orderId: 'o-1' });
        const bad = await ctx.call(lookup, { orderId: 42 });
        await ctx.waitForSignal('go');
        return { found, bad };
      },
    });
    const w = worker({ store, workflows: [flow] });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    await flow.signal({ store, runId, name: 'go' });
    await w.drain();
    const { found, bad } = await flow.result(runId, { store });
    expect(found).toEqual({ content: 'order o-1: 2 items' });
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain('Invalid arguments for "lookup"');
    expect(executions).toEqual([{ orderId: 'o-1', key: `${runId}:$call:lookup` }]); // replay ran nothing
  });

  it('retries a call that throws by its policy, then keeps the failure with its attempts', async () => {
    const store = fresh();
    let tries = 0;
    const flaky = {
      name: 'flaky',
      invoke: async () => {
        tries++;
        throw new Error('service down');
      },
    };
    const flow = workflow({
      id: 'flaky-call',
      async run(ctx) {
        try {
          await ctx.call(flaky, {}, { id: 'c', retry: { maxAttempts: 3, initialDelayMs: 1 } });
        } catch (error) {
          return { code: (error as WorkflowError).code, message: (error as Error).message };
        }
      },
    });
    const { runId } = await flow.start(undefined, { store });
    await worker({ store, workflows: [flow] }).drain();
    expect(await flow.result(runId, { store })).toEqual({
      code: 'STEP_FAILED',
      message: 'call "c" of tool "flaky" failed after 3 attempts: service down',
    });
    expect(tries).toBe(3);
  });

  it('parks on an approval with a single-use token; the decision is taken once and the tool runs once', async () => {
    const store = fresh();
    executions.length = 0;
    const handedOut: PendingDecision[] = [];
    const flow = workflow({
      id: 'refund-flow',
      async run(ctx, orderId: string) {
        const result = await ctx.call(refund, { orderId });
        return { refunded: !result.isError, content: result.content };
      },
    });
    const w = worker({ store, workflows: [flow], onPending: (p) => handedOut.push(p) });
    const { runId } = await flow.start('o-7', { store });
    await w.drain();
    const waiting = await flow.get(runId, { store });
    expect(waiting.status).toBe('waiting');
    expect(waiting.waitingOn?.decisions).toEqual(['$call:refund']);
    expect(waiting.pending).toMatchObject([
      {
        decisionId: '$call:refund',
        call: { kind: 'approval', toolName: 'refund', args: { orderId: 'o-7' }, risk: 'high' },
      },
    ]);
    expect(JSON.stringify(waiting)).not.toContain(handedOut[0].token); // only its hash is stored
    expect(handedOut).toHaveLength(1);
    const { token } = handedOut[0];
    const decisions = await Promise.allSettled([
      flow.approve(token, { store, by: 'ana' }),
      flow.approve(token, { store, by: 'ben' }),
    ]);
    expect(decisions.filter((d) => d.status === 'fulfilled')).toHaveLength(1);
    const refused = decisions.find((d) => d.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'ALREADY_DECIDED' });
    expect(refused.reason.message).toMatch(/was already decided \(approve by (ana|ben) at /);
    await w.drain();
    expect(await flow.result(runId, { store })).toEqual({
      refunded: true,
      content: 'refunded o-7',
    });
    expect(executions).toEqual([{ orderId: 'o-7', key: `${runId}:$call:refund` }]);
    const done = await flow.get(runId, { store });
    expect(done.audit).toMatchObject([
      { action: 'approve', decisionId: '$call:refund', toolName: 'refund' },
    ]);
    await expect(
      flow.approve({ runId, decisionId: '$call:refund' }, { store }),
    ).rejects.toMatchObject({
      code: 'ALREADY_DECIDED',
    });
  });

  it('makes a rejection the call result, and refuses decisions of the wrong kind', async () => {
    const store = fresh();
    executions.length = 0;
    const flow = workflow({ id: 'rejected', run: (ctx) => ctx.call(refund, { orderId: 'o-8' }) });
    const w = worker({ store, workflows: [flow] });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    const ref = { runId, decisionId: '$call:refund' };
    await expect(flow.resume(ref, 'M', { store })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining(
        'is an approval: expected approve or reject, received resume',
      ),
    });
    await flow.reject(ref, 'not eligible', { store, by: 'ana' });
    await w.drain();
    expect(await flow.result(runId, { store })).toEqual({
      content: 'Tool call "refund" was rejected: not eligible',
      isError: true,
    });
    expect(executions).toEqual([]);
  });

  it("parks on a tool's suspension; the answer reaches the tool as ctx.resumeValue", async () => {
    const store = fresh();
    executions.length = 0;
    const flow = workflow({ id: 'size', run: (ctx) => ctx.call(askSize, {}) });
    const w = worker({ store, workflows: [flow] });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    const waiting = await flow.get(runId, { store });
    expect(waiting.pending).toMatchObject([
      { call: { kind: 'suspend', reason: 'Which size?', payload: { choices: ['S', 'M', 'L'] } } },
    ]);
    await flow.resume({ runId, decisionId: waiting.pending![0].decisionId }, 'M', { store });
    await w.drain();
    expect(await flow.result(runId, { store })).toEqual({ content: 'size M' });
    expect(executions).toEqual([{ orderId: '-', resumeValue: 'M' }]);
  });

  it('refuses a decision once the run has ended', async () => {
    const store = fresh();
    const flow = workflow({ id: 'ended', run: (ctx) => ctx.call(refund, { orderId: 'o-9' }) });
    const w = worker({ store, workflows: [flow] });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    await flow.cancel(runId, { store, by: 'ops' });
    await w.drain();
    await expect(
      flow.approve({ runId, decisionId: '$call:refund' }, { store }),
    ).rejects.toMatchObject({
      code: 'NOT_PENDING',
    });
  });
});

describe('ctx.agent', () => {
  it("runs an agent as a durable child: its approvals are the run's pending decisions, no model turn is repeated", async () => {
    const store = fresh();
    executions.length = 0;
    const model = scriptedModel([
      { toolCalls: [{ name: 'lookup', args: { orderId: 'o-3' } }] },
      { toolCalls: [{ name: 'refund', args: { orderId: 'o-3' } }] },
      'Refunded o-3 (2 items).',
    ]);
    const support = agent({ model, tools: [lookup, refund] });
    const flow = workflow({
      id: 'support',
      async run(ctx) {
        const summary = await ctx.agent(support, 'Refund order o-3');
        await ctx.step('notify', () => `sent: ${summary.text}`);
        return summary.text;
      },
    });
    const handedOut: PendingDecision[] = [];
    const w = worker({ store, workflows: [flow], onPending: (p) => handedOut.push(p) });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    const waiting = await flow.get(runId, { store });
    expect(waiting.status).toBe('waiting');
    expect(waiting.pending).toMatchObject([
      { call: { kind: 'approval', toolName: 'refund', args: { orderId: 'o-3' } } },
    ]);
    expect(model.requests).toHaveLength(2);
    await flow.approve(handedOut[0].token, { store, by: 'ana' });
    await w.drain();
    expect(await flow.result(runId, { store })).toBe('Refunded o-3 (2 items).');
    expect(model.requests).toHaveLength(3); // each turn billed once across the park and resume
    expect(executions.map((e) => e.orderId)).toEqual(['o-3', 'o-3']); // lookup once, refund once
    const history = await flow.history(runId, { store });
    expect(history.map((e) => [e.kind, e.id, e.state])).toEqual([
      ['agent', '$agent:agent', 'done'],
      ['step', 'notify', 'done'],
    ]);
  });
});
