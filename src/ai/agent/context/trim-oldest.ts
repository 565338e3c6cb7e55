import { checkCount, checkStrategyOptions } from './check.ts';
import { defineStrategy } from './strategy.ts';
import type { ContextStrategy } from './types.ts';

/** Options of {@link trimOldest}. */
export interface TrimOldestOptions {
  /** How many of the latest messages are never dropped (default 0: only what every request needs). */
  keep?: number;
}

/**
 * A context strategy that leaves out the oldest messages until the request fits: whole
 * earlier exchanges first (a user message and everything up to the next one), then the
 * oldest tool-call pairs of the current one. It never separates a `tool_use` from its
 * `tool_result`, and never drops the system prompt, the latest user message or the
 * latest model turn with its results. `keep` protects more of the latest messages.
 * The state keeps every message; only the request is shorter.
 *
 * @example
 * ```ts
 * import { agent, trimOldest } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 *
 * const model = scriptedModel(['Fine.']);
 * const history = Array.from({ length: 40 }, (_, i) => ({
 *   role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
 *   content: `message ${i} `.repeat(50),
 * }));
 * const bot = agent({ model, context: { maxTokens: 1_000, strategy: trimOldest({ keep: 2 }) } });
 * const result = await bot.generate([...history, { role: 'user', content: 'And now?' }]);
 * console.log(result.status, model.requests[0].messages.length < 41); // done true
 * ```
 */
export function trimOldest(options?: TrimOldestOptions): ContextStrategy {
  const checked = checkStrategyOptions('trimOldest(options)', options, ['keep']);
  const keep = checkCount('trimOldest(options).keep', checked.keep, 0);
  return defineStrategy(
    'trimOldest',
    { keep },
    {
      apply({ window, summary }) {
        const floor = window.all.length - keep;
        for (const [from, to] of window.units(summary?.through ?? 0)) {
          if (window.fits() || to > floor) return;
          for (let i = from; i < to; i++) window.drop(i);
        }
      },
    },
  );
}
