/**
 * The agent of the session example: a support assistant that looks an order up (safe)
 * and refunds it (needs a human's approval). Its model is scripted, so the example runs
 * offline: it asks for both tools, then summarises their results.
 *
 * The default export is what `fino sessions approve … --agent examples/session/refund-agent.ts`
 * loads to continue a run in the CLI's own process.
 */
import { agent } from 'fino:ai/agent';
import { type GenerateRequest, scriptedModel } from 'fino:ai/model';
import { tool } from 'fino:ai/tool';
import { v } from 'fino:validate';

/** Looks an order up (safe); the customer-support example uses it too. */
export const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Look up an order by id.',
  parameters: v.object({ orderId: v.string() }),
  execute: ({ orderId }: { orderId: string }) => `Order ${orderId}: 2 items, 89 EUR, delivered`,
});

/** Refunds an order, once a person approved; the customer-support example uses it too. */
export const refund = tool({
  name: 'refund',
  description: 'Refund an order to the original payment method.',
  parameters: v.object({ orderId: v.string(), amount: v.number() }),
  requiresApproval: true,
  risk: 'high',
  sideEffects: true,
  // A real payment API would take ctx.idempotencyKey, so a refund in flight when its
  // worker died is not paid twice when another worker takes the run over.
  execute: ({ orderId, amount }: { orderId: string; amount: number }, ctx) =>
    `Refunded ${amount} EUR for ${orderId} (idempotency key ${ctx.idempotencyKey})`,
});

/** The scripted model's move: call the tools first, then summarise their results. */
function nextTurn(request: GenerateRequest) {
  const last = request.messages.at(-1);
  const results = Array.isArray(last?.content)
    ? last.content.flatMap((part) => (part.type === 'tool_result' ? [part] : []))
    : [];
  if (results.length === 0) {
    return {
      toolCalls: [
        { id: 'call_lookup', name: 'lookup_order', args: { orderId: 'o-17' } },
        { id: 'call_refund', name: 'refund', args: { orderId: 'o-17', amount: 89 } },
      ],
    };
  }
  return `Done. ${results.map((r) => `${r.isError ? 'failed: ' : ''}${String(r.content)}`).join(' | ')}`;
}

/** A fresh refund agent (each process builds its own). */
export function refundAgent() {
  return agent({
    name: 'refunds',
    // Each turn is decided from the conversation, so one agent can drive many runs.
    model: scriptedModel(Array.from({ length: 10_000 }, () => nextTurn)),
    instructions: 'You are a support assistant.',
    tools: [lookupOrder, refund],
  });
}

export default refundAgent();
