import type { StandardSchemaV1 } from './types.ts';

/**
 * Tells whether a value is a Standard Schema v1 object (Zod 4, Valibot, ArkType, fino
 * builders…): it has a `~standard` property with `version: 1` and a `validate` function.
 * ArkType types are functions, so functions are accepted too.
 *
 * @example
 * ```ts
 * import { isStandardSchema, v } from 'fino:validate';
 *
 * isStandardSchema(v.string()); // → true
 * isStandardSchema({ type: 'string' }); // → false
 * ```
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as Partial<StandardSchemaV1>)['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    props.version === 1 &&
    typeof props.validate === 'function'
  );
}
