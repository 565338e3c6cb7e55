/**
 * Server-sent event parsing (decision 106): fino's parser against eventsource-parser, the
 * parser the Vercel AI SDK and the MCP SDK stream with (both devDependencies bring it), on
 * what a model server sends: many small token events, and one 12 MB `data:` line arriving
 * in 16 KiB chunks (issue 24 item 5: the previous parser took 93 s on it, re-scanning its
 * buffer for every chunk). Each peer's events are checked before timing. The token
 * estimate's benchmark is in ./token-estimate.ts.
 */
import { createParser } from 'eventsource-parser';
import { parseServerSentEvents } from '../../src/ai/model/wire/sse.ts';
import { compareBatched } from '../harness.ts';

const encoder = new TextEncoder();

function chunked(text: string, size: number): Uint8Array[] {
  const bytes = encoder.encode(text);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

async function fino(chunks: Uint8Array[]): Promise<string[]> {
  async function* body() {
    yield* chunks;
  }
  const out: string[] = [];
  for await (const event of parseServerSentEvents(body())) out.push(event.data);
  return out;
}

async function peer(chunks: Uint8Array[]): Promise<string[]> {
  const out: string[] = [];
  const parser = createParser({ onEvent: (event) => out.push(event.data) });
  const decoder = new TextDecoder();
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  // Keep both peers asynchronous, as a body read is.
  await Promise.resolve();
  return out;
}

const token = JSON.stringify({ choices: [{ index: 0, delta: { content: 'token' } }] });
const tokens = chunked(`data: ${token}\n\n`.repeat(2_000), 1024);
const line = 'a'.repeat(12 * 1024 * 1024);
const big = chunked(`data: ${line}\n\n`, 16 * 1024);

for (const parse of [fino, peer]) {
  const small = await parse(tokens);
  const large = await parse(big);
  if (small.length !== 2_000 || small[0] !== token || large.length !== 1 || large[0] !== line) {
    throw new Error(`${parse.name}: wrong events`);
  }
}

await compareBatched('2,000 token events in 1 KiB chunks', {
  fino: () => fino(tokens),
  'eventsource-parser': () => peer(tokens),
});
await compareBatched(
  'one 12 MB data: line in 16 KiB chunks',
  { fino: () => fino(big), 'eventsource-parser': () => peer(big) },
  { samples: 7, warmupMs: 1000, sampleMs: 200 },
);

await import('./token-estimate.ts');
