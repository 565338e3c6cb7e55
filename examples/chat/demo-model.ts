/**
 * The chat example's offline model: a scripted shop assistant that streams its answers a
 * few words at a time, slowly enough to watch (and to reload the page in the middle of).
 * Asked for a refund, it looks the order up, then asks for the `refund` tool, which waits
 * for the user's approval in the page. Its turns are decided from the conversation, so
 * one model serves every chat and every process.
 */

import type {
  GenerateRequest,
  GenerateResult,
  Model,
  ScriptedReply,
  StreamEvent,
} from 'fino:ai/model';
import { randomUUID } from 'node:crypto';

/** How the demo model paces its text. */
export interface DemoPace {
  /** Words per text delta (default 2). */
  words?: number;
  /** Milliseconds between deltas (default 100). */
  delayMs?: number;
}

/** The long answer (to "tell me a story"): about ten seconds of text. */
export const DEMO_STORY = `Once upon a time a parcel left a warehouse in Lyon on a rainy Monday. It crossed
three borders, waited two nights in a depot near Basel, was scanned eleven times and
photographed twice, and reached its owner on Friday morning, slightly damp but whole. The
owner opened it, found the blue kettle she had ordered, made tea, and wrote a review of
five stars that mentioned the rain, the depot and the eleven scans. The courier read it
and smiled. That is the story of order o-17, told slowly so that you can watch it arrive.`;

/** The answer to anything else. */
export const DEMO_ANSWER = `Hello! I am the demo assistant of this fino example. I stream my answers a
few words at a time from a scripted model, so you can watch the text arrive, reload the
page in the middle, and see the answer finish anyway. Ask me for a refund of an order
(for example "please refund order o-17") to see a tool call that waits for your approval,
or ask for a long story.`;

/** The text of the last message when it is the user's words; `undefined` after tool results. */
function userText(request: GenerateRequest): string | undefined {
  const last = request.messages.at(-1);
  if (last?.role !== 'user') return undefined;
  if (typeof last.content === 'string') return last.content;
  if (last.content.some((part) => part.type === 'tool_result')) return undefined;
  return last.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
}

/** The results in the last message, by the name of the tool that gave them. */
function toolResults(request: GenerateRequest): Map<string, { text: string; isError: boolean }> {
  const names = new Map<string, string>();
  for (const message of request.messages) {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    for (const part of message.content) if (part.type === 'tool_use') names.set(part.id, part.name);
  }
  const results = new Map<string, { text: string; isError: boolean }>();
  const last = request.messages.at(-1);
  if (Array.isArray(last?.content)) {
    for (const part of last.content) {
      if (part.type !== 'tool_result') continue;
      const text = typeof part.content === 'string' ? part.content : JSON.stringify(part.content);
      results.set(names.get(part.toolCallId) ?? '', { text, isError: part.isError === true });
    }
  }
  return results;
}

/** The order a conversation is about: the last `o-<digits>` the user wrote, else o-17. */
function orderOf(request: GenerateRequest): string {
  for (const message of [...request.messages].reverse()) {
    if (message.role !== 'user' || typeof message.content !== 'string') continue;
    const found = /\bo-\d+\b/.exec(message.content);
    if (found) return found[0];
  }
  return 'o-17';
}

/** The demo's move: answer, story, or the refund's two tool calls and the summary. */
export function demoTurn(request: GenerateRequest): ScriptedReply {
  const usage = { inputTokens: 120, outputTokens: 60 };
  const asked = userText(request);
  const orderId = orderOf(request);
  if (asked !== undefined) {
    if (/refund/i.test(asked)) {
      return {
        text: `Let me look up order ${orderId} first.`,
        toolCalls: [{ name: 'lookup_order', args: { orderId } }],
        usage,
      };
    }
    return { text: /story/i.test(asked) ? DEMO_STORY : DEMO_ANSWER, usage };
  }
  const results = toolResults(request);
  const lookup = results.get('lookup_order');
  if (lookup) {
    return {
      text: `${lookup.text}. I can refund 89 EUR to your card; that needs your approval.`,
      toolCalls: [{ name: 'refund', args: { orderId, amount: 89 } }],
      usage,
    };
  }
  const refunded = results.get('refund');
  if (refunded?.isError) return { text: `No refund then: ${refunded.text}`, usage };
  return { text: `Done: ${refunded?.text ?? 'nothing to do'}. Anything else?`, usage };
}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** `text` in pieces of `words` words (each keeping the spaces after it). */
function pieces(text: string, words: number): string[] {
  const tokens = text.replace(/\s+/g, ' ').match(/\S+\s*/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i += words) out.push(tokens.slice(i, i + words).join(''));
  return out;
}

/** A turn's events: its text a few words at a time, then its tool calls, usage and stop. */
async function* paced(
  result: GenerateResult,
  pace: Required<DemoPace>,
  signal?: AbortSignal,
): AsyncIterable<StreamEvent> {
  for (const text of pieces(result.text, pace.words)) {
    await wait(pace.delayMs, signal);
    if (signal?.aborted) return;
    yield { type: 'text-delta', text };
  }
  for (const [index, call] of result.toolCalls.entries()) {
    yield { type: 'tool-call-start', id: call.id, name: call.name, index };
    yield { type: 'tool-call-delta', id: call.id, argsText: JSON.stringify(call.args), index };
    yield { type: 'tool-call-end', call, index };
  }
  yield { type: 'usage', usage: result.usage };
  yield { type: 'stop', result };
}

/** A turn's reply as the result of a model call; tool call ids are `call_<n>`. */
function resultOf(reply: ScriptedReply): GenerateResult {
  const text = (reply.text ?? '').replace(/\s+/g, ' '); // one line, as it streams
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: `call_${randomUUID().slice(0, 8)}`,
    name: call.name,
    args: call.args,
  }));
  const content: GenerateResult['message']['content'] = [];
  if (text) content.push({ type: 'text', text });
  for (const call of toolCalls) content.push({ type: 'tool_use', ...call });
  const inputTokens = reply.usage?.inputTokens ?? 0;
  const outputTokens = reply.usage?.outputTokens ?? 0;
  return {
    message: { role: 'assistant', content },
    text,
    toolCalls,
    stopReason: toolCalls.length > 0 ? 'tool_calls' : 'end',
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
  };
}

/** The demo model: {@link demoTurn} for every request, streamed at `pace`. */
export function demoModel(pace: DemoPace = {}): Model {
  const steady = { words: pace.words ?? 2, delayMs: pace.delayMs ?? 100 };
  return {
    id: 'fino-demo',
    generate: async (request) => resultOf(demoTurn(request)),
    stream: (request) => paced(resultOf(demoTurn(request)), steady, request.signal),
  };
}
