/**
 * Workflows the inbox tests decide, over the session tests' tools: `refunds` loads an
 * order (a step), then calls `refund` (needs approval; counts its executions); `sizes`
 * calls `ask_size`, which suspends for an answer with a declared JSON Schema; `napper`
 * sleeps for a day.
 */
import {
  type PendingDecision,
  type WorkflowStore,
  worker,
  workflow,
} from '../../../../src/workflow/index.ts';
import { shopTools } from './fixtures.ts';

export function workflowShop(store: WorkflowStore) {
  const executions = { refund: 0 };
  const { refund, askSize } = shopTools(executions);
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
