/**
 * The agent both processes of the approval example use: a billing assistant with a
 * safe lookup tool and an invoicing tool that needs a human's approval. Its model is
 * scripted, so the example runs offline: it asks for both tools, then, once it sees the
 * results, answers with a summary.
 */
import { agent } from 'fino:ai/agent';
import { type GenerateRequest, scriptedModel } from 'fino:ai/model';
import { tool } from 'fino:ai/tool';
import { v } from 'fino:validate';

const lookupCustomer = tool({
  name: 'lookup_customer',
  description: 'Look up a customer by id.',
  parameters: v.object({ id: v.string() }),
  execute: ({ id }: { id: string }) => `Customer ${id}: ACME Corp, billing@acme.example`,
});

const sendInvoice = tool({
  name: 'send_invoice',
  description: 'Email an invoice to a customer.',
  parameters: v.object({ customerId: v.string(), amount: v.number() }),
  requiresApproval: true,
  risk: 'high',
  sideEffects: true,
  execute: ({ customerId, amount }: { customerId: string; amount: number }, ctx) =>
    `Invoice for ${amount} EUR sent to ${customerId} (idempotency key ${ctx.idempotencyKey})`,
});

/** The scripted model's move: call the tools first, then summarise their results. */
function nextTurn(request: GenerateRequest) {
  const last = request.messages.at(-1);
  const results = Array.isArray(last?.content)
    ? last.content.flatMap((part) => (part.type === 'tool_result' ? [part] : []))
    : [];
  if (results.length === 0) {
    return {
      text: 'Looking up the customer and preparing the invoice.',
      toolCalls: [
        { id: 'call_lookup', name: 'lookup_customer', args: { id: 'c-42' } },
        { id: 'call_invoice', name: 'send_invoice', args: { customerId: 'c-42', amount: 1200 } },
      ],
    };
  }
  const summary = results.map((r) => `${r.isError ? 'failed: ' : ''}${String(r.content)}`);
  return `Done. ${summary.join(' | ')}`;
}

/** A fresh billing agent (each process builds its own). */
export function billingAgent() {
  return agent({
    name: 'billing',
    model: scriptedModel([nextTurn, nextTurn]),
    instructions: 'You are a billing assistant.',
    tools: [lookupCustomer, sendInvoice],
  });
}
