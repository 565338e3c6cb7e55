/**
 * A UI message stream to a page: `agentUIResponse` (a fino agent run as the AI SDK's UI
 * message stream) against the AI SDK's own `streamText(...).toUIMessageStreamResponse()`,
 * over the same fake model — a scripted stream of N text deltas answered from memory.
 * Each sample builds the response and reads its body to the end, timing:
 *
 * - time to first chunk: from the call to the first bytes of the body;
 * - per-chunk overhead: the rest of the body's time divided by the N deltas.
 *
 * A third peer is the chat handler over a memory session (`chatHandler`, a user message
 * posted to a new chat each time): not the same work — the run is durable, its events are
 * recorded and the response streams them back from the session — but what a page over a
 * session pays.
 *
 * The peers are warmed up first, samples alternate between them, and the median with
 * the p25–p75 spread is reported with the load average.
 *
 *     npm run bench -- ui
 */
import { streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { agent } from '../../src/ai/agent/index.ts';
import type { GenerateRequest, Model, StreamEvent } from '../../src/ai/model/index.ts';
import { memoryStore, session } from '../../src/ai/session/index.ts';
import { agentUIResponse, chatHandler } from '../../src/ai/ui/index.ts';
import { loadLine, quantile } from '../harness.ts';

const DELTAS = Number(process.env.BENCH_UI_DELTAS ?? 1000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 41);
const WARMUP = 30;
const delta = 'token ';

/** fino's fake model: N text deltas, then the turn. */
const finoModel: Model = {
  id: 'bench',
  generate: () => Promise.reject(new Error('stream only')),
  async *stream(_request: GenerateRequest): AsyncIterable<StreamEvent> {
    for (let i = 0; i < DELTAS; i++) yield { type: 'text-delta', text: delta };
    const text = delta.repeat(DELTAS);
    const usage = { inputTokens: 1, outputTokens: DELTAS, totalTokens: DELTAS + 1 };
    yield {
      type: 'stop',
      result: {
        message: { role: 'assistant', content: [{ type: 'text', text }] },
        text,
        toolCalls: [],
        stopReason: 'end',
        usage,
      },
    };
  },
};
const bot = agent({ model: finoModel });

/** The AI SDK's fake model: the same N deltas as provider stream parts. */
function aiModel() {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: DELTAS, text: DELTAS, reasoning: undefined },
  };
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          for (let i = 0; i < DELTAS; i++)
            controller.enqueue({ type: 'text-delta', id: 't', delta });
          controller.enqueue({ type: 'text-end', id: 't' });
          const finishReason = { unified: 'stop' as const, raw: undefined };
          controller.enqueue({ type: 'finish', finishReason, usage });
          controller.close();
        },
      }),
    }),
  });
}

const chat = chatHandler({
  session: session({ store: memoryStore(), agent: bot, events: true }),
});
let chats = 0;
/** A page's POST of a user message to a new chat. */
const postToNewChat = () =>
  chat.fetch(
    new Request('http://bench.test/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: `chat-${++chats}`,
        message: { id: 'u', role: 'user', parts: [{ type: 'text', text: 'go' }] },
      }),
    }),
  );

const peers: Record<string, () => Response | Promise<Response>> = {
  'fino agentUIResponse': () => agentUIResponse(bot, 'go'),
  'ai streamText().toUIMessageStreamResponse()': () =>
    streamText({ model: aiModel(), prompt: 'go' }).toUIMessageStreamResponse(),
  'fino chatHandler (memory session, events recorded)': postToNewChat,
};

/** Time to the first bytes, and to the end, of one response's body, in nanoseconds. */
async function sample(
  make: () => Response | Promise<Response>,
): Promise<{ first: number; total: number }> {
  const start = process.hrtime.bigint();
  const reader = ((await make()).body as ReadableStream<Uint8Array>).getReader();
  let first = 0;
  for (;;) {
    const { done } = await reader.read();
    if (first === 0) first = Number(process.hrtime.bigint() - start);
    if (done) break;
  }
  return { first, total: Number(process.hrtime.bigint() - start) };
}

const firsts = new Map<string, number[]>();
const perChunk = new Map<string, number[]>();
for (const [name, make] of Object.entries(peers)) {
  for (let i = 0; i < WARMUP; i++) await sample(make);
  firsts.set(name, []);
  perChunk.set(name, []);
}
const names = Object.keys(peers);
for (let i = 0; i < SAMPLES; i++) {
  for (const name of i % 2 ? [...names].reverse() : names) {
    const { first, total } = await sample(peers[name]);
    firsts.get(name)?.push(first);
    perChunk.get(name)?.push((total - first) / DELTAS);
  }
}

const us = (ns: number) => `${(ns / 1e3).toFixed(1)} µs`;
const row = (name: string, values: number[], base: number[]) =>
  `| ${name} | ${us(quantile(values, 0.5))} | ${us(quantile(values, 0.25))} – ${us(quantile(values, 0.75))} | ${(quantile(values, 0.5) / quantile(base, 0.5)).toFixed(2)} |`;
for (const [title, table] of [
  ['time to first chunk', firsts],
  ['per-chunk overhead (body time after the first chunk ÷ deltas)', perChunk],
] as const) {
  const base = table.get(names[1]) as number[];
  console.log(`### ui: ${title}, ${DELTAS} text deltas\n`);
  console.log('| peer | median | p25 – p75 | × ai |\n|---|---:|---:|---:|');
  for (const name of names) console.log(row(name, table.get(name) as number[], base));
  console.log('');
}
console.log(`${SAMPLES} samples per peer after ${WARMUP} warm-up runs each; ${loadLine()}\n`);
