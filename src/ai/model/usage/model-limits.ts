/**
 * The context window and output limit of each known model, and how a provider adapter
 * settles its model's {@link ModelLimits}: its `limits` option over the shipped table
 * over a conservative default (docs/decisions/142).
 */
import { describeValue } from '../../../internal/describe-value.ts';
import { unknownKeyMessage } from '../../../internal/known-keys.ts';
import { ModelError, type ModelLimits } from '../core/index.ts';

type Limits = readonly [contextWindow: number, maxOutput: number];

/**
 * Written 2026-12-03. OpenAI: the model specifications shipped in `gpt-tokenizer` 4.0.0
 * (`context_window`, `max_output_tokens`). Anthropic and Google: their model pages
 * (platform.claude.com/docs/en/about-claude/models, ai.google.dev/gemini-api/docs/models)
 * on that date; Anthropic's 1M-token windows behind a beta header are not assumed.
 * A name matches an entry when it is the entry or a variant of it ({@link VARIANT}:
 * `claude-sonnet-4-5-20250929`, `gpt-4o-mini`); the longest matching entry wins.
 */
const TABLE: Readonly<Record<string, Limits>> = {
  // OpenAI
  'gpt-5.6': [1_050_000, 128_000],
  'gpt-5.6-cyber': [400_000, 128_000],
  'gpt-5.5': [1_050_000, 128_000],
  'gpt-5.4': [1_050_000, 128_000],
  'gpt-5.4-mini': [400_000, 128_000],
  'gpt-5.4-nano': [400_000, 128_000],
  'gpt-5.3-codex': [400_000, 128_000],
  'gpt-5.3-chat-latest': [128_000, 16_384],
  'gpt-5.2': [400_000, 128_000],
  'gpt-5.2-chat-latest': [128_000, 16_384],
  'gpt-5.1': [400_000, 128_000],
  'gpt-5.1-chat-latest': [128_000, 16_384],
  'gpt-5': [400_000, 128_000],
  'gpt-5-pro': [400_000, 272_000],
  'gpt-5-chat-latest': [128_000, 16_384],
  'gpt-4.5-preview': [128_000, 16_384],
  'gpt-4.1': [1_047_576, 32_768],
  'gpt-4o': [128_000, 16_384],
  'gpt-4o-2024-05-13': [128_000, 4_096],
  'chatgpt-4o-latest': [128_000, 16_384],
  'gpt-4-turbo': [128_000, 4_096],
  'gpt-4-1106-preview': [128_000, 4_096],
  'gpt-4-0125-preview': [128_000, 4_096],
  'gpt-4-32k': [32_768, 8_192],
  'gpt-4': [8_192, 8_192],
  'gpt-3.5-turbo': [16_385, 4_096],
  'gpt-3.5-turbo-instruct': [4_096, 4_096],
  'gpt-oss-120b': [131_072, 131_072],
  'gpt-oss-20b': [131_072, 131_072],
  'codex-mini-latest': [200_000, 100_000],
  o1: [200_000, 100_000],
  'o1-pro': [200_000, 100_000],
  'o1-mini': [128_000, 65_536],
  'o1-preview': [128_000, 32_768],
  o3: [200_000, 100_000],
  'o3-mini': [200_000, 100_000],
  'o3-pro': [200_000, 100_000],
  'o4-mini': [200_000, 100_000],
  // Anthropic
  'claude-opus-4-6': [1_000_000, 128_000],
  'claude-sonnet-4-6': [1_000_000, 128_000],
  'claude-opus-4-5': [200_000, 64_000],
  'claude-sonnet-4-5': [200_000, 64_000],
  'claude-haiku-4-5': [200_000, 64_000],
  'claude-opus-4-1': [200_000, 32_000],
  'claude-opus-4': [200_000, 32_000],
  'claude-sonnet-4': [200_000, 64_000],
  'claude-3-7-sonnet': [200_000, 64_000],
  'claude-3-5-sonnet': [200_000, 8_192],
  'claude-3-5-haiku': [200_000, 8_192],
  'claude-3-opus': [200_000, 4_096],
  'claude-3-haiku': [200_000, 4_096],
  // Google
  'gemini-3.1-pro': [1_048_576, 65_536],
  'gemini-3-pro': [1_048_576, 65_536],
  'gemini-3-flash': [1_048_576, 65_536],
  'gemini-2.5-pro': [1_048_576, 65_536],
  'gemini-2.5-flash': [1_048_576, 65_536],
  'gemini-2.5-flash-image': [32_768, 32_768],
  'gemini-2.0-flash': [1_048_576, 8_192],
  'gemini-1.5-pro': [2_097_152, 8_192],
  'gemini-1.5-flash': [1_048_576, 8_192],
};

/**
 * What may follow an entry's name in a name it covers: `-` or `@` and anything but a
 * one- or two-digit version (`-20250514` and `-mini` continue it, `claude-opus-4-7` is
 * another model than `claude-opus-4`).
 */
const VARIANT = /^[-@](?!\d{1,2}(?:\D|$))/;

/**
 * Names of a family the table does not list yet: every model of it has at least this
 * window, so a new name gets it, marked `assumed` (the family's smallest output limit).
 */
const FAMILIES: ReadonlyArray<readonly [RegExp, Limits]> = [
  [/^(gpt-5|gpt-4\.1|gpt-4o|o\d)/, [128_000, 16_384]],
  [/^claude-/, [200_000, 8_192]],
  [/^gemini-/, [1_048_576, 8_192]],
];

/** Any other name (a local server's model, say): small enough for any current model. */
const DEFAULT: Limits = [8_192, 4_096];

/**
 * The limits of a model by name: the shipped table's entry, a family's floor
 * (`assumed`), or the conservative default (`assumed`).
 */
export function tableLimits(name: string): ModelLimits {
  const bare = name.replace(/^models\//, '');
  let best: string | undefined;
  for (const key of Object.keys(TABLE)) {
    const matches = bare === key || (bare.startsWith(key) && VARIANT.test(bare.slice(key.length)));
    if (matches && (best === undefined || key.length > best.length)) best = key;
  }
  if (best !== undefined) return { contextWindow: TABLE[best][0], maxOutput: TABLE[best][1] };
  const family = FAMILIES.find(([pattern]) => pattern.test(bare))?.[1] ?? DEFAULT;
  return { contextWindow: family[0], maxOutput: family[1], assumed: true };
}

/**
 * A model's limits: the caller's `limits` option (either field alone is enough) over the
 * table's. The output limit never exceeds the window; given limits are not `assumed`.
 */
export function modelLimits(
  owner: string,
  name: string,
  given: Partial<ModelLimits> | undefined,
): ModelLimits {
  const table = tableLimits(name);
  if (given === undefined) return table;
  checkLimits(owner, given);
  const own = (key: keyof ModelLimits) => (Object.hasOwn(given, key) ? given[key] : undefined);
  const contextWindow = (own('contextWindow') as number | undefined) ?? table.contextWindow;
  const maxOutput = Math.min(
    (own('maxOutput') as number | undefined) ?? table.maxOutput,
    contextWindow,
  );
  return { contextWindow, maxOutput };
}

/** Refuses a `limits` option that is not `{ contextWindow?, maxOutput? }` of positive integers. */
function checkLimits(owner: string, given: unknown): asserts given is Partial<ModelLimits> {
  const where = `${owner}(options).limits`;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new TypeError(
      `${where}: expected { contextWindow?: number, maxOutput?: number }, received ${describeValue(given)}`,
    );
  }
  const unknown = unknownKeyMessage(where, given, ['contextWindow', 'maxOutput']);
  if (unknown) throw new ModelError(unknown, { provider: owner, code: 'INVALID_ARGUMENT' });
  const limits = given as Record<string, unknown>;
  for (const key of ['contextWindow', 'maxOutput']) {
    const value = Object.hasOwn(limits, key) ? limits[key] : undefined;
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) > 0)) {
      throw new RangeError(
        `${where}.${key}: expected a positive integer number of tokens, received ${describeValue(value)}`,
      );
    }
  }
  const contextWindow = Object.hasOwn(limits, 'contextWindow') ? limits.contextWindow : undefined;
  const maxOutput = Object.hasOwn(limits, 'maxOutput') ? limits.maxOutput : undefined;
  if (
    typeof contextWindow === 'number' &&
    typeof maxOutput === 'number' &&
    maxOutput > contextWindow
  ) {
    throw new RangeError(
      `${where}.maxOutput: expected at most contextWindow (${contextWindow}), received ${maxOutput}`,
    );
  }
}
