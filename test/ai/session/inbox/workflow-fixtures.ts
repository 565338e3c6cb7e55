/**
 * Workflows the inbox tests decide: `refunds` loads an order (a step), then calls
 * `refund` (needs approval; counts its executions); `sizes` calls `ask_size`, which
 * suspends for an answer with a declared JSON Schema; `napper` sleeps for a day.
 */
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';
import {
  type PendingDecision,
  type WorkflowStore,
  worker,
  workflow,
} from '../../../../src/workflow/index.ts';

export function workflowShop(store: WorkflowStore) {
  const executions = { refund: 0 };
  const refund = tool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: v.object({ orderId: v.string() }),
    requiresApproval: true,
    risk: 'destructive',
    sideEffects: true,
    execute: ({ orderId }: { orderId: string }) => {
      executions.refund++;
      return `refunded ${orderId}`;
    },
  });
  const askSize = tool({
    name: 'ask_size',
    description: 'Ask the customer for a size.',
    parameters: v.object({}),
    execute: (_args: Record<string, never>, ctx) =>
      ctx.resumeValue === undefined
        ? ctx.suspend('Which size?', { schema: { type: 'string', enum: ['S', 'M', 'L'] } })
        : `size ${String(ctx.resumeValue)}`,
  });
  const refunds = workflow({
    id: 'refunds',
    async run(ctx, orderId: string) {
      await ctx.step('load-order', () => ({ orderId, total: 42 }));
      return ctx.call(refund, { orderId });
    },
  });
  const sizes = workflow({ id: 'sizes', run: (ctx) => ctx.call(askSize, {}) });
  const napper = workflow({
    id: 'napper',
    async run(ctx) {
      await ctx.step('wake', () => 'awake');
      await ctx.sleep('nap', 86_400_000);
    },
  });
  const tokens: PendingDecision[] = [];
  const w = worker({
    store,
    workflows: [refunds, sizes, napper],
    onPending: (pending) => tokens.push(pending),
  });
  return { executions, refunds, sizes, napper, worker: w, tokens };
}
