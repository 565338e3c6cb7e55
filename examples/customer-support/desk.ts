/**
 * The agents of the customer-support example: a triage agent that greets and routes, and a
 * refunds specialist with an approval-gated `refund` tool that hands the customer back to
 * triage when it is done. Their models are scripted (each turn decided from the
 * conversation), so the example runs offline; swap in `openai({ model: 'gpt-4.1' })`.
 */
import { type Agent, agent, guardrail } from 'fino:ai/agent';
import { type GenerateRequest, ModelError, type ScriptedReply, scriptedModel } from 'fino:ai/model';
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
  if (typeof last?.content === 'string' && /which card/i.test(last.content)) {
    return 'You paid with the card 4111 1111 1111 1111.'; // the PII guardrail stops this one
  }
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

/** What an overloaded OpenAI answers: a 503, a fault of the provider, so the run falls over. */
const overloaded = () =>
  new ModelError('openai: 503 The server is overloaded', {
    provider: 'openai',
    status: 503,
    retryable: true,
  });

/**
 * gpt-4.1 deciding each turn with `turn` (each process builds its own), answering 503
 * while `outage` is on; and a second provider's model, deciding the same way, that the
 * agents fall back to (`fallbackModels`) when gpt-4.1 fails for the provider's fault.
 */
function deskModels(turn: (request: GenerateRequest) => ScriptedReply | string, outage: boolean) {
  const turns = (answer: (request: GenerateRequest) => ScriptedReply | string | Error) =>
    Array.from({ length: 1_000 }, () => answer);
  return {
    model: scriptedModel(
      turns((request) => (outage ? overloaded() : turn(request))),
      {
        id: 'openai:gpt-4.1',
      },
    ),
    fallbackModels: [scriptedModel(turns(turn), { id: 'anthropic:claude-sonnet-4-5' })],
  };
}

/** Trips on a card number or an e-mail address in an answer, before the customer sees it. */
const pii = guardrail({
  name: 'pii',
  check: (answer) => {
    const found = /\b(?:\d[ -]?){13,19}\b|[\w.+-]+@[\w-]+\.[\w.]+/.exec(String(answer));
    return {
      tripped: found !== null,
      output: found ? 'a card number or an e-mail address' : undefined,
    };
  },
});

/**
 * The triage agent, root of the handoff graph (triage ⇄ refunds). Both agents run on
 * gpt-4.1 with a second provider behind it, and check their final answers for PII. With
 * `outage`, gpt-4.1 answers 503 in this process, and every step falls over.
 */
export function supportDesk({ outage = false }: { outage?: boolean } = {}): Agent {
  const refunds: Agent = agent({
    name: 'refunds',
    description: 'Refunds an order: looks it up, asks approval, pays it back.',
    instructions: 'You are the refunds specialist. Hand back to triage when done.',
    ...deskModels(refundsTurn, outage),
    tools: [lookupOrder, refund],
    handoffs: () => [triage],
    outputGuardrails: [pii],
  });
  const triage: Agent = agent({
    name: 'triage',
    description: 'Greets the customer and routes the request.',
    instructions: 'You are the front desk. Send refund requests to the refunds specialist.',
    ...deskModels(triageTurn, outage),
    handoffs: [refunds],
    outputGuardrails: [pii],
  });
  return triage;
}
