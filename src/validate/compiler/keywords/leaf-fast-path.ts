import type { Validate } from '../state.ts';
import type { JsonType } from './type.ts';

/** Keywords that never affect validity (or, `format`, only when formats are asserted). */
const ANNOTATIONS = new Set([
  'type',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  '$schema',
  'format',
]);
const STRING_BOUNDS = new Set(['minLength', 'maxLength']);
const NUMBER_BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);

const numberOr = (value: unknown, fallback: number) =>
  typeof value === 'number' ? value : fallback;

/**
 * A one-call fast path for the leaf schemas tool arguments are made of — a string with
 * length bounds, a number or integer with bounds, an enum of strings: an inline test
 * that is a sufficient condition for validity (a string enum accepts its members only
 * when `type` is absent or allows strings), falling back to the full closure `full`
 * (which also reports issues) whenever it does not hold. Undefined for any other schema.
 * Call only on schema objects whose keywords compiled without error.
 */
export function quickAccept(
  schema: Record<string, unknown>,
  types: readonly JsonType[] | undefined,
  formatsAsserted: boolean,
  full: Validate,
): Validate | undefined {
  const keys = Object.keys(schema);
  const type = types?.length === 1 ? types[0] : undefined;
  const isAnnotation = (key: string) =>
    ANNOTATIONS.has(key) && !(key === 'format' && formatsAsserted);
  const only = (allowed: ReadonlySet<string>) =>
    keys.some((key) => allowed.has(key)) &&
    keys.every((key) => allowed.has(key) || isAnnotation(key));
  if (Array.isArray(schema.enum) && (types === undefined || types.includes('string'))) {
    const values = schema.enum;
    if (!values.every((value) => typeof value === 'string') || !only(new Set(['enum'])))
      return undefined;
    const set = new Set<unknown>(values);
    return (data, st) => set.has(data) || full(data, st);
  }
  if (type === 'string' && only(STRING_BOUNDS)) {
    const atLeast = 2 * numberOr(schema.minLength, 0);
    const atMost = numberOr(schema.maxLength, Number.POSITIVE_INFINITY);
    return (data, st) =>
      (typeof data === 'string' && data.length >= atLeast && data.length <= atMost) ||
      full(data, st);
  }
  if ((type === 'number' || type === 'integer') && only(NUMBER_BOUNDS)) {
    const low = numberOr(schema.minimum, Number.NEGATIVE_INFINITY);
    const high = numberOr(schema.maximum, Number.POSITIVE_INFINITY);
    const above = numberOr(schema.exclusiveMinimum, Number.NEGATIVE_INFINITY);
    const below = numberOr(schema.exclusiveMaximum, Number.POSITIVE_INFINITY);
    return type === 'integer'
      ? (data, st) =>
          (Number.isInteger(data) &&
            (data as number) >= low &&
            (data as number) <= high &&
            (data as number) > above &&
            (data as number) < below) ||
          full(data, st)
      : (data, st) =>
          (Number.isFinite(data) &&
            (data as number) >= low &&
            (data as number) <= high &&
            (data as number) > above &&
            (data as number) < below) ||
          full(data, st);
  }
  return undefined;
}
