import type { Model } from './types.ts';

/**
 * Whether `value` is a {@link Model}: an object with `generate()` and `stream()` — the
 * check every place that takes a model makes before it calls one.
 *
 * @example
 * ```ts
 * import { isModel, scriptedModel } from 'fino:ai/model';
 *
 * console.log(isModel(scriptedModel([])), isModel('gpt-4.1')); // true false
 * ```
 */
export function isModel(value: unknown): value is Model {
  const model = value as Model | null;
  return (
    model !== null &&
    typeof model === 'object' &&
    typeof model.generate === 'function' &&
    typeof model.stream === 'function'
  );
}
