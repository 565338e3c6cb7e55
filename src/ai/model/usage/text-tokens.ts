/**
 * Tokens of a text under OpenAI's `o200k_base` encoding (GPT-4o, GPT-4.1, GPT-5, o-series),
 * counted with `gpt-tokenizer`, bounded in time whatever the text (docs/decisions/141).
 */
import { createRequire } from 'node:module';

interface Encoding {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
  setMergeCacheSize(size: number): void;
}

/**
 * Texts up to this many characters are counted whole; longer ones from three samples,
 * so no text costs more than about this much encoding.
 */
const MAX_EXACT_CHARS = 64 * 1024;
/** Characters of each of the three samples of a longer text (start, middle, end). */
const SAMPLE_CHARS = 16 * 1024;
/**
 * A run of characters of one {@link kindOf kind} at least this long is counted in pieces
 * of {@link RUN_PIECE} characters: the tokenizer's own pieces lie within such runs, and
 * byte-pair encoding of one long piece costs the square of its length (100,000 × `a`
 * takes ten seconds whole, as does a line of Japanese without spaces).
 */
const LONG_RUN = 128;
const RUN_PIECE = 64;
/**
 * Pieces whose merges the tokenizer remembers (its default, 100,000, held 27 MB and ran
 * 3.7× slower on a stream of unique words; ordinary text runs as fast with this).
 */
const MERGE_CACHE_SIZE = 10_000;
/** Special-token text such as `<|endoftext|>` is counted as the plain text it is. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

let encoding: Encoding | undefined;

/**
 * The encoding, loaded on first use: its tables take about a second and some 70 MB to
 * load, which a program that never counts tokens should not pay.
 */
function o200k(): Encoding {
  if (encoding === undefined) {
    const loaded = createRequire(import.meta.url)('gpt-tokenizer/cjs/encoding/o200k_base');
    (loaded as Encoding).setMergeCacheSize(MERGE_CACHE_SIZE);
    encoding = loaded as Encoding;
  }
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

/**
 * Counts a text, its long runs in pieces. One pass over the characters finds the runs (a
 * regular expression for them backtracks at every position, costing more than the count).
 */
function countBounded(text: string): number {
  const encoding = o200k();
  if (!mayHaveLongRun(text)) return encoding.countTokens(text, AS_TEXT);
  let total = 0;
  let from = 0;
  let runStart = 0;
  let runKind = kindOf(text.charCodeAt(0));
  for (let i = 1; i <= text.length; i++) {
    const kind = i < text.length ? kindOf(text.charCodeAt(i)) : END;
    if (kind === runKind) continue;
    if (i - runStart >= LONG_RUN) {
      if (runStart > from) total += encoding.countTokens(text.slice(from, runStart), AS_TEXT);
      for (let at = runStart; at < i; at += RUN_PIECE) {
        total += encoding.countTokens(text.slice(at, Math.min(at + RUN_PIECE, i)), AS_TEXT);
      }
      from = i;
    }
    runStart = i;
    runKind = kind;
  }
  if (from < text.length) total += encoding.countTokens(text.slice(from), AS_TEXT);
  return total;
}

/**
 * Whether some aligned block of {@link RUN_PIECE} characters is all of one kind: a run of
 * {@link LONG_RUN} (≥ 2 × RUN_PIECE − 1) characters always covers one. Most blocks of
 * prose, code and JSON hold a space or a digit within a few characters, so this costs a
 * small fraction of a full pass.
 */
function mayHaveLongRun(text: string): boolean {
  for (let block = 0; block + RUN_PIECE <= text.length; block += RUN_PIECE) {
    const end = block + RUN_PIECE;
    const first = kindOf(text.charCodeAt(block));
    let i = block + 1;
    while (i < end && kindOf(text.charCodeAt(i)) === first) i++;
    if (i === end) return true;
  }
  return false;
}

const SPACE = 0;
const DIGIT = 1;
const REST = 2;
const END = -1;

/**
 * The kind of a UTF-16 code unit: the tokenizer's pieces never cross from ASCII spaces or
 * digits to anything else (a space may lead a word: one character more), so a run of the
 * rest (letters, punctuation, anything beyond ASCII, mixed) bounds every piece inside it.
 */
function kindOf(code: number): number {
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === 32 || (code >= 9 && code <= 13)) return SPACE;
  return REST;
}
