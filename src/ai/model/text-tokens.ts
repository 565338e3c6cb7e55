/**
 * Tokens of a text under OpenAI's `o200k_base` encoding (GPT-4o, GPT-4.1, GPT-5, o-series),
 * counted with `gpt-tokenizer`, bounded in time whatever the text (docs/decisions/141).
 */
import { createRequire } from 'node:module';

interface Encoding {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
}

/**
 * Texts up to this many characters are counted whole; longer ones from three samples,
 * so no text costs more than about this much encoding.
 */
export const MAX_EXACT_CHARS = 64 * 1024;
/** Characters of each of the three samples of a longer text (start, middle, end). */
const SAMPLE_CHARS = 16 * 1024;
/**
 * A run of non-space (or of space) characters at least this long is counted in pieces of
 * {@link RUN_PIECE} characters: byte-pair encoding of one long run costs the square of its
 * length (100,000 × `a` takes ten seconds whole).
 */
const LONG_RUN = 256;
const RUN_PIECE = 128;
const LONG_RUNS = new RegExp(`\\S{${LONG_RUN},}|\\s{${LONG_RUN},}`, 'g');
/** Special-token text such as `<|endoftext|>` is counted as the plain text it is. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

let encoding: Encoding | undefined;

/**
 * The encoding, loaded on first use: its tables take about a second and some 70 MB to
 * load, which a program that never counts tokens should not pay.
 */
function o200k(): Encoding {
  encoding ??= createRequire(import.meta.url)('gpt-tokenizer/cjs/encoding/o200k_base') as Encoding;
  return encoding;
}

/**
 * The text's `o200k_base` token count: exact for texts up to {@link MAX_EXACT_CHARS}
 * characters without long runs; a long run counts at most one token more per
 * {@link RUN_PIECE} characters; a longer text is its length times the densest of three
 * samples' tokens per character (so it errs high).
 */
export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length <= MAX_EXACT_CHARS) return countBounded(text);
  const middle = Math.floor((text.length - SAMPLE_CHARS) / 2);
  let density = 0;
  for (const start of [0, middle, text.length - SAMPLE_CHARS]) {
    const sample = text.slice(start, start + SAMPLE_CHARS);
    density = Math.max(density, countBounded(sample) / sample.length);
  }
  return Math.ceil(text.length * density);
}

/** Counts a text, its long runs in pieces. */
function countBounded(text: string): number {
  const encoding = o200k();
  LONG_RUNS.lastIndex = 0;
  if (!LONG_RUNS.test(text)) return encoding.countTokens(text, AS_TEXT);
  let total = 0;
  let from = 0;
  LONG_RUNS.lastIndex = 0;
  for (const run of text.matchAll(LONG_RUNS)) {
    if (run.index > from) total += encoding.countTokens(text.slice(from, run.index), AS_TEXT);
    for (let i = 0; i < run[0].length; i += RUN_PIECE) {
      total += encoding.countTokens(run[0].slice(i, i + RUN_PIECE), AS_TEXT);
    }
    from = run.index + run[0].length;
  }
  if (from < text.length) total += encoding.countTokens(text.slice(from), AS_TEXT);
  return total;
}
