/**
 * Prices of models in USD per million tokens: their shape, how a model id finds its
 * price (the caller's table first, then the shipped one), and the check of a caller's
 * table (docs/decisions/150).
 */
import { describeValue, showValue } from '../../../internal/describe-value.ts';
import { unknownKeyMessage } from '../../../internal/known-keys.ts';
import { SHIPPED_PRICES } from './price-table.ts';

/** What one kind of token costs, in USD per million tokens. */
export interface TokenRates {
  /** Input tokens neither read from nor written to a prompt cache. */
  input: number;
  /** Output tokens (reasoning included, unless `reasoning` prices it apart). */
  output: number;
  /** Input tokens read from the prompt cache; without it they cost `input`. */
  cachedInput?: number;
  /** Input tokens written to the prompt cache (Anthropic); without it they cost `input`. */
  cacheWrite?: number;
  /** Reasoning tokens, where a provider prices them apart from output; without it they cost `output`. */
  reasoning?: number;
}

/**
 * A model's price in USD per million tokens. `above` holds the rates of a request whose
 * input is over `above.inputTokens` tokens: such a request pays them on every token
 * (Gemini's Pro models above 200,000 tokens).
 *
 * @example
 * ```ts
 * import type { ModelPrice } from 'fino:ai/model';
 *
 * const price: ModelPrice = { input: 2, output: 8, cachedInput: 0.5 };
 * console.log(price.output); // 8
 * ```
 */
export interface ModelPrice extends TokenRates {
  above?: TokenRates & { inputTokens: number };
}

/**
 * Prices by model: a model name (`gpt-4.1`), a provider-qualified id (`openai:gpt-4.1`)
 * or a family that dated snapshots share (`gpt-4.1` for `gpt-4.1-2025-04-14`).
 */
export type Prices = Readonly<Record<string, ModelPrice>>;

/** The most entries a caller's price table may have. */
export const MAX_PRICE_ENTRIES = 10_000;
/** The highest rate accepted, USD per million tokens: far above any list price, and safe for exact sums. */
const MAX_RATE = 1_000_000;
const RATE_KEYS = ['input', 'output', 'cachedInput', 'cacheWrite', 'reasoning'] as const;
const PRICE_KEYS = [...RATE_KEYS, 'above'];
const ABOVE_KEYS = [...RATE_KEYS, 'inputTokens'];
/** Keys that name an object's machinery, never a model. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Date and release suffixes that snapshots add to a family's name. */
const SNAPSHOT_SUFFIXES = [
  /-\d{4}-\d{2}-\d{2}$/, // OpenAI: gpt-4.1-2025-04-14
  /-\d{8}$/, // Anthropic: claude-sonnet-4-5-20250929
  /@\d{8}$/, // Vertex AI: claude-sonnet-4-5@20250929
  /-latest$/, // claude-3-5-haiku-latest
  /-preview(-\d{2}-\d{2}(-\d{4})?)?$/, // Gemini: gemini-2.5-flash-preview-05-20
  /-\d{3}$/, // Gemini: gemini-1.5-pro-002
];

/** The model's name: the id without its provider, and without Gemini's `models/` prefix. */
function modelName(modelId: string): string {
  const colon = modelId.indexOf(':');
  return (colon >= 0 ? modelId.slice(colon + 1) : modelId).replace(/^models\//, '');
}

/**
 * The family a model name belongs to: the name without its provider prefix (and Gemini's
 * `models/`) and without one date or release suffix (`-2025-04-14`, `-20250929`, `-latest`, `-preview-05-20`).
 * Nothing else is stripped: `gpt-4.1-mini` is its own family, never `gpt-4.1`.
 *
 * @example
 * ```ts
 * import { modelFamily } from 'fino:ai/model';
 *
 * console.log(modelFamily('openai:gpt-4.1-2025-04-14')); // 'gpt-4.1'
 * console.log(modelFamily('claude-sonnet-4-5-20250929')); // 'claude-sonnet-4-5'
 * ```
 */
export function modelFamily(modelId: string): string {
  const name = modelName(modelId);
  for (const suffix of SNAPSHOT_SUFFIXES) {
    const stripped = name.replace(suffix, '');
    if (stripped !== name && stripped !== '') return stripped;
  }
  return name;
}

/**
 * The price of a model, or `undefined` when neither table has it. `prices` (checked
 * with {@link checkPrices}) is searched first, then the shipped table; in each, the
 * whole id (`openai:gpt-4.1-2025-04-14`), the name (`gpt-4.1-2025-04-14`), the
 * provider-qualified family (`openai:gpt-4.1`) and the family (`gpt-4.1`), in that order.
 *
 * @example
 * ```ts
 * import { findPrice } from 'fino:ai/model';
 *
 * console.log(findPrice('openai:gpt-4.1-2025-04-14')?.output); // 8
 * console.log(findPrice('acme:unknown-model')); // undefined
 * console.log(findPrice('acme:small', { small: { input: 1, output: 2 } })?.input); // 1
 * ```
 */
export function findPrice(modelId: string, prices?: Prices): ModelPrice | undefined {
  const colon = modelId.indexOf(':');
  const provider = colon > 0 ? modelId.slice(0, colon) : '';
  const name = modelName(modelId);
  const family = modelFamily(name);
  const keys = [modelId, name, provider && `${provider}:${family}`, family].filter(Boolean);
  for (const table of prices === undefined ? [SHIPPED_PRICES] : [prices, SHIPPED_PRICES]) {
    for (const key of keys) if (Object.hasOwn(table, key)) return table[key];
  }
  return undefined;
}

/**
 * Checks a caller's price table and returns a frozen copy without a prototype, or throws
 * a `TypeError` naming the entry and the field that is wrong (a negative, non-finite or
 * non-numeric rate, an unknown field, a missing `input` or `output`, a reserved key such
 * as `__proto__`). `where` names the option in the message.
 *
 * @example
 * ```ts
 * import { checkPrices } from 'fino:ai/model';
 *
 * try {
 *   checkPrices({ 'gpt-4.1': { input: -2, output: 8 } }, 'prices');
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // prices["gpt-4.1"].input: expected a number of USD per million tokens, 0 to 1000000, received number -2
 * }
 * ```
 */
export function checkPrices(value: unknown, where: string): Prices {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(
      `${where}: expected an object of prices by model ({ 'gpt-4.1': { input, output } }), received ${describeValue(value)}`,
    );
  }
  const keys = Object.keys(value);
  if (keys.length > MAX_PRICE_ENTRIES) {
    throw new TypeError(
      `${where}: expected at most ${MAX_PRICE_ENTRIES} models, received ${keys.length}`,
    );
  }
  const table = Object.create(null) as Record<string, ModelPrice>;
  for (const key of keys) {
    const at = `${where}[${showValue(key)}]`;
    if (key === '' || RESERVED_KEYS.has(key)) {
      throw new TypeError(`${at}: expected a model name or id, received the key ${showValue(key)}`);
    }
    const entry = (value as Record<string, unknown>)[key];
    const rates = checkRates(entry, at, PRICE_KEYS);
    const above = (entry as { above?: unknown }).above;
    if (above !== undefined) {
      const tier = checkRates(above, `${at}.above`, ABOVE_KEYS);
      const inputTokens = (above as { inputTokens?: unknown }).inputTokens;
      if (!Number.isSafeInteger(inputTokens) || (inputTokens as number) < 1) {
        throw new TypeError(
          `${at}.above.inputTokens: expected a positive integer (the input size above which these rates apply), received ${describeValue(inputTokens)}`,
        );
      }
      rates.above = Object.freeze({ ...tier, inputTokens: inputTokens as number });
    }
    table[key] = Object.freeze(rates);
  }
  return Object.freeze(table);
}

function checkRates(entry: unknown, at: string, known: readonly string[]): ModelPrice {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw new TypeError(
      `${at}: expected { input, output, cachedInput?, cacheWrite?, reasoning? } in USD per million tokens, received ${describeValue(entry)}`,
    );
  }
  const unknown = unknownKeyMessage(at, entry, known);
  if (unknown) throw new TypeError(unknown);
  const rates = {} as ModelPrice;
  for (const key of RATE_KEYS) {
    const rate = (entry as Record<string, unknown>)[key];
    if (rate === undefined && key !== 'input' && key !== 'output') continue;
    if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0 || rate > MAX_RATE) {
      throw new TypeError(
        `${at}.${key}: expected a number of USD per million tokens, 0 to ${MAX_RATE}, received ${describeValue(rate)}`,
      );
    }
    rates[key] = rate;
  }
  return rates;
}
