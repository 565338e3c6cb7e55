/**
 * The agents of the customer-support example: a triage agent that greets and routes, and a
 * refunds specialist with an approval-gated `refund` tool that hands the customer back to
 * triage when it is done. Their models are scripted (each turn decided from the
 * conversation), so the example runs offline; swap in `openai({ model: 'gpt-4.1' })`.
 */
import { type Agent, agent } from 'fino:ai/agent';
import { type GenerateRequest, type Model, type ScriptedReply, scriptedModel } from 'fino:ai/model';
import { lookupOrder, refund } from '../session/refund-agent.ts';

/** The name of a tool whose results the last message holds, if it holds any. */
function answeredTool(request: GenerateRequest): string | undefined {
  const last = request.messages.at(-1);
  if (!Array.isArray(last?.content)) return undefined;
  const answered = new Set(
    last.content.flatMap((p) => (p.type === 'tool_result' ? [p.toolCallId] : [])),
  );
  // The model turn the results answer is the one before them.
  const turn = request.messages.at(-2);
  if (!Array.isArray(turn?.content)) return undefined;
  for (const part of turn.content) {
    if (part.type === 'tool_use' && answered.has(part.id)) return part.name;
  }
  return undefined;
}

/** Triage: routes refund requests, welcomes the customer back, answers the rest. */
function triageTurn(request: GenerateRequest): ScriptedReply | string {
  const answered = answeredTool(request);
  if (answered === 'transfer_to_triage')
    return 'Your refund is on its way. Anything else I can do?';
  const last = request.messages.at(-1);
  if (typeof last?.content === 'string' && /refund/i.test(last.content)) {
    return { toolCalls: [{ name: 'transfer_to_refunds', args: { orderId: 'o-17' } }] };
  }
  return 'Happy to help. Have a nice day!';
}

/** Refunds: looks the order up and refunds it (after approval), then hands back to triage. */
function refundsTurn(request: GenerateRequest): ScriptedReply | string {
  const answered = answeredTool(request);
  if (answered === 'refund' || answered === 'lookup_order') {
    return {
      text: 'Refunded 89 EUR for o-17.',
      toolCalls: [{ name: 'transfer_to_triage', args: {} }],
    };
  }
  return {
    toolCalls: [
      { id: 'call_lookup', name: 'lookup_order', args: { orderId: 'o-17' } },
      { id: 'call_refund', name: 'refund', args: { orderId: 'o-17', amount: 89 } },
    ],
  };
}

/** A model deciding each turn with `turn`; each process builds its own. */
function deskModel(turn: (request: GenerateRequest) => ScriptedReply | string): Model {
  // >>> LEAD: FALLBACK MODEL (issue 29, item 3) — here gpt-4.1 gets its fallback to a second
  // provider on 503 (`fallback([openai({ model: 'gpt-4.1' }), …])` or `fallbackModels`).
  return scriptedModel(Array.from({ length: 1_000 }, () => turn));
  // <<< LEAD: FALLBACK MODEL
}

/** The triage agent, root of the handoff graph (triage ⇄ refunds). */
export function supportDesk(): Agent {
  const refunds: Agent = agent({
    name: 'refunds',
    description: 'Refunds an order: looks it up, asks approval, pays it back.',
    instructions: 'You are the refunds specialist. Hand back to triage when done.',
    model: deskModel(refundsTurn),
    tools: [lookupOrder, refund],
    handoffs: () => [triage],
  });
  const triage: Agent = agent({
    name: 'triage',
    description: 'Greets the customer and routes the request.',
    instructions: 'You are the front desk. Send refund requests to the refunds specialist.',
    model: deskModel(triageTurn),
    handoffs: [refunds],
    // >>> LEAD: PII OUTPUT GUARDRAIL (issue 29, item 2) — here the desk's answers get their
    // PII check (`outputGuardrails: [pii]`) before the customer sees them.
    // <<< LEAD: PII OUTPUT GUARDRAIL
  });
  return triage;
}
