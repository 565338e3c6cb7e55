/**
 * The list prices fino ships, in USD per million tokens, for the OpenAI, Anthropic and
 * Gemini models current when the table was written ({@link PRICES_WRITTEN}). Prices
 * change and new models appear: the table goes stale, and an agent's `prices` option
 * overrides or extends it (docs/decisions/150 says where each row came from).
 */
import type { ModelPrice } from './prices.ts';

/**
 * The day the shipped price table was written (ISO 8601). Check the providers' pricing
 * pages for anything newer; pass `prices` to an agent to correct or extend the table.
 *
 * @example
 * ```ts
 * import { PRICES_WRITTEN } from 'fino:ai/model';
 *
 * console.log(PRICES_WRITTEN); // '2026-12-03'
 * ```
 */
export const PRICES_WRITTEN = '2026-12-03';

const price = (
  input: number,
  output: number,
  extra: Omit<ModelPrice, 'input' | 'output'> = {},
): ModelPrice => Object.freeze({ input, output, ...extra });

/** Anthropic bills a 5-minute cache write at 1.25× and a cache hit at 0.1× the input price. */
const claude = (input: number, output: number, cachedInput = input / 10): ModelPrice =>
  price(input, output, { cachedInput, cacheWrite: input * 1.25 });

/** Gemini's Pro models bill every token of a request whose prompt is over 200,000 tokens at a higher rate. */
const over200k = (input: number, output: number) =>
  Object.freeze({ inputTokens: 200_000, input, output });

/**
 * The shipped table by model family (the model name without its provider or date, see
 * `modelFamily`). OpenAI: reasoning tokens are output tokens, at the output price;
 * Anthropic: `cacheWrite` is the 5-minute cache write (a 1-hour write costs more, and
 * usage does not say which was made); Gemini: thinking tokens are output tokens.
 */
export const SHIPPED_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, ModelPrice>, {
    // OpenAI (developers.openai.com/api/docs/pricing, standard tier)
    'gpt-5.5': price(5, 30, { cachedInput: 0.5 }),
    'gpt-5.5-pro': price(30, 180),
    'gpt-5.4': price(2.5, 15, { cachedInput: 0.25 }),
    'gpt-5.4-mini': price(0.75, 4.5, { cachedInput: 0.075 }),
    'gpt-5.4-nano': price(0.2, 1.25, { cachedInput: 0.02 }),
    'gpt-5.4-pro': price(30, 180),
    'gpt-5.2': price(1.75, 14, { cachedInput: 0.175 }),
    'gpt-5': price(1.25, 10, { cachedInput: 0.125 }),
    'gpt-5-mini': price(0.25, 2, { cachedInput: 0.025 }),
    'gpt-4.1': price(2, 8, { cachedInput: 0.5 }),
    'gpt-4.1-mini': price(0.4, 1.6, { cachedInput: 0.1 }),
    'gpt-4.1-nano': price(0.1, 0.4, { cachedInput: 0.025 }),
    'gpt-4o': price(2.5, 10, { cachedInput: 1.25 }),
    'gpt-4o-mini': price(0.15, 0.6, { cachedInput: 0.075 }),
    // Anthropic (platform.claude.com/docs/en/about-claude/pricing)
    'claude-opus-5': claude(5, 25),
    'claude-opus-4-8': claude(5, 25),
    'claude-opus-4-7': claude(5, 25),
    'claude-opus-4-6': claude(5, 25),
    'claude-opus-4-5': claude(5, 25),
    'claude-opus-4-1': claude(15, 75),
    'claude-opus-4': claude(15, 75),
    'claude-sonnet-5-5': claude(2, 10, 0.1),
    'claude-sonnet-5': claude(2, 10),
    'claude-sonnet-4-6': claude(3, 15),
    'claude-sonnet-4-5': claude(3, 15),
    'claude-sonnet-4': claude(3, 15),
    'claude-haiku-5-5': price(0.1, 0.5, {
      cachedInput: 0.01,
      cacheWrite: 0.125,
      above: Object.freeze({
        inputTokens: 100_000,
        input: 0.5,
        output: 2.5,
        cachedInput: 0.05,
        cacheWrite: 0.625,
      }),
    }),
    'claude-haiku-4-5': claude(1, 5),
    'claude-3-5-haiku': claude(0.8, 4),
    'claude-3-haiku': claude(0.25, 1.25, 0.03),
    // Gemini (ai.google.dev/gemini-api/docs/pricing, paid tier, text input). No cache
    // rates: the sources read did not give them, so cached tokens cost `input` (never less
    // than billed); pass `prices` with `cachedInput` to count the discount.
    'gemini-3.5-flash': price(1.5, 9),
    'gemini-3.1-pro': price(2, 12, { above: over200k(4, 18) }),
    'gemini-3.1-flash-lite': price(0.25, 1.5),
    'gemini-3-flash': price(0.5, 3),
    'gemini-2.5-pro': price(1.25, 10, { above: over200k(2.5, 15) }),
    'gemini-2.5-flash': price(0.3, 2.5),
    'gemini-2.5-flash-lite': price(0.1, 0.4),
  }),
);
