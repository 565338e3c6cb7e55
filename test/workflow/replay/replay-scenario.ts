/**
 * A workflow that reaches every kind of history entry a replay meets — a step, a code
 * version, made-up values, an event, a tool call, a child run, an agent whose tool waits
 * for an approval, a timer — in versions whose code changed, and the side effects each
 * would have (steps, tools, model turns) counted, so a replay can be shown to cause none.
 */
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { type Workflow, workflow } from '../../../src/workflow/index.ts';

/** How the code changed since the history was recorded. */
export type Change = 'none' | 'step-inserted' | 'step-became-sleep' | 'step-added-at-end';

/** Side effects of the scenario's code, in order. */
export interface Effects {
  log: string[];
  modelRequests: () => number;
}

/** The scenario's workflows (`order` and its child `pack`) under `change`, and their effects. */
export function orderScenario(change: Change = 'none'): {
  order: Workflow<{ orderId: string }, string>;
  pack: Workflow<string, string>;
  effects: Effects;
} {
  const log: string[] = [];
  const lookup = tool({
    name: 'lookup',
    description: 'Look an order up.',
    parameters: v.object({ orderId: v.string() }),
    execute: ({ orderId }: { orderId: string }) => {
      log.push(`lookup ${orderId}`);
      return `order ${orderId}: 2 items`;
    },
  });
  const refund = tool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: v.object({ orderId: v.string() }),
    requiresApproval: true,
    execute: ({ orderId }: { orderId: string }) => {
      log.push(`refund ${orderId}`);
      return `refunded ${orderId}`;
    },
  });
  const model = scriptedModel([
    { toolCalls: [{ name: 'refund', args: { orderId: 'o-1' } }] },
    'Refunded o-1.',
  ]);
  const support = agent({ model, tools: [refund] });
  const pack = workflow({
    id: 'pack',
    run: (ctx, orderId: string) =>
      ctx.step('box', () => {
        log.push(`box ${orderId}`);
        return `boxed ${orderId}`;
      }),
  });
  const order = workflow({
    id: 'order',
    async run(ctx, { orderId }: { orderId: string }) {
      if (change === 'step-inserted') await ctx.step('validate', () => log.push('validate'));
      const item = await ctx.step('reserve', () => {
        log.push('reserve');
        return `item of ${orderId}`;
      });
      const pricing = await ctx.version('pricing', { min: 1, max: 2 });
      const stamp = [await ctx.now(), await ctx.random(), await ctx.uuid()];
      await ctx.emit('reserved', { item, pricing, made: stamp.length });
      const found = await ctx.call(lookup, { orderId });
      const boxed = await ctx.child(pack, orderId, { id: 'pack' });
      if (change === 'step-became-sleep') await ctx.sleep('charge', 1);
      else await ctx.step('charge', () => log.push('charge'));
      const refunded = await ctx.agent(support, `Refund order ${orderId}`);
      await ctx.sleep('cool-off', 200);
      const shipped = await ctx.step('ship', () => {
        log.push('ship');
        return `${boxed}, ${refunded.text}, ${String(found.content)}`;
      });
      if (change === 'step-added-at-end') await ctx.step('thank', () => log.push('thank'));
      return shipped;
    },
  });
  return { order, pack, effects: { log, modelRequests: () => model.requests.length } };
}
