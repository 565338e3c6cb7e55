/**
 * `estimateMessageTokens` per message (issue 22 item 2, decision 141): what the context
 * step pays for every message before every model request. Four messages an agent's
 * history holds — a user question, an assistant tool call, a 4 KB and a 32 KB JSON tool
 * result — each timed three ways: a message seen before (the per-message cache), a new
 * message object over content the tokenizer has seen (its merge cache warm, the usual
 * case: the agent's messages are new objects after a resume from JSON), and the
 * tokenizer's own count of the same text (`gpt-tokenizer` `countTokens`), the floor.
 * Every peer's count is checked before timing.
 * Run: `npx tsx bench/run.ts model` (with the SSE benchmark) or `npx tsx bench/model/token-estimate.ts`.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateMessageTokens, type ModelMessage } from '../../src/ai/model/index.ts';
import { compareBatched } from '../harness.ts';

const MODEL = 'openai:gpt-4o';
const AS_TEXT = { disallowedSpecial: new Set<string>() };

function rows(count: number): string {
  return JSON.stringify(
    Array.from({ length: count }, (_, i) => ({
      id: `ord_${1000 + i}`,
      customer: `Customer ${i}`,
      total: Math.round((i * 37.5) % 997) / 10,
      status: ['paid', 'open', 'refunded'][i % 3],
      note: 'Delivered to the front desk; signed by reception.',
    })),
  );
}

const question =
  'Can you check why order ord_1042 was refunded twice last week, and who approved it?';
const args = { query: 'refunds', filters: { order: 'ord_1042', since: '2026-11-26' }, limit: 50 };
const cases: Array<{ title: string; message: ModelMessage; text: string }> = [
  {
    title: 'user question (~20 tokens)',
    message: { role: 'user', content: question },
    text: question,
  },
  {
    title: 'assistant tool call (JSON args)',
    message: {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'call_1', name: 'search_orders', args }],
    },
    text: JSON.stringify(args),
  },
  ...[4, 32].map((kib) => {
    const json = rows(Math.round((kib * 1024) / 150));
    return {
      title: `tool result, ${Math.round(json.length / 1024)} KB of JSON`,
      message: {
        role: 'user' as const,
        content: [{ type: 'tool_result' as const, toolCallId: 'call_1', content: json }],
      },
      text: json,
    };
  }),
];

for (const { title, message, text } of cases) {
  const counted = estimateMessageTokens(message, MODEL);
  const fresh = estimateMessageTokens({ ...message }, MODEL);
  if (counted !== fresh || counted < countTokens(text, AS_TEXT)) {
    throw new Error(`${title}: estimates disagree (${counted}, ${fresh})`);
  }
  await compareBatched(`estimateMessageTokens: ${title}, ${counted} tokens`, {
    'new message object': () => estimateMessageTokens({ ...message }, MODEL),
    'same message (cached)': () => estimateMessageTokens(message, MODEL),
    'gpt-tokenizer countTokens (text only)': () => countTokens(text, AS_TEXT),
  });
}
