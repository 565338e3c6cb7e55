import type { SchemaPattern } from '../regex.ts';
import type { Validate } from '../state.ts';
import type { JsonType } from './type.ts';

/**
 * Leaf schemas — the strings, numbers, enums and type tests tool arguments are made of —
 * described as data, so that the loops over an object's properties and an array's items
 * test them inline with one `switch` ({@link leafPasses}) instead of calling a closure per
 * value: such calls go through call sites shared by every schema, which V8 cannot inline.
 *
 * A leaf's test is a sufficient condition for validity; where it fails, the caller runs
 * the subschema's closure, which decides (and reports). Leaves sit in shapes (shape.ts). A string length counted in UTF-16
 * units, for instance, accepts for sure only at twice the minimum.
 */

/** Not a leaf: call the closure. */
const CALL = 0;
export const ANY = 1;
/** One of the types in `mask` (`type: 'string'`, `type: ['string', 'null']`), by {@link typeBits}. */
export const TYPES = 2;
/** A string in a set (`enum` of strings). */
const ENUM = 3;
/** A string with a length within bounds. */
const STRING_LENGTH = 4;
/** A number (`mask`: a finite number or an integer) within bounds. */
const NUMBER_RANGE = 5;
/** A string matching a pattern. */
const PATTERN = 6;

/** One bit per JSON type, for a value's {@link typeBits}. */
export const TYPE_BIT: Record<JsonType, number> = {
  string: 1,
  number: 2,
  integer: 4,
  boolean: 8,
  null: 16,
  object: 32,
  array: 64,
};

/** The JSON types `value` has, as {@link TYPE_BIT}s (an integer is also a number); 0 for none. */
export function typeBits(value: unknown): number {
  // `typeof value === '…'` tests, not a `switch (typeof value)`: V8 compiles these to a
  // type check without materialising the type's name.
  if (typeof value === 'string') return 1;
  if (typeof value === 'number')
    return Number.isInteger(value) ? 6 : Number.isFinite(value) ? 2 : 0;
  if (typeof value === 'boolean') return 8;
  if (typeof value === 'object') return value === null ? 16 : Array.isArray(value) ? 64 : 32;
  return 0;
}

/** The bits of `types`. */
export function maskOf(types: readonly JsonType[]): number {
  let mask = 0;
  for (const type of types) mask |= TYPE_BIT[type];
  return mask;
}

/** A leaf test. One class, so every field read in {@link leafPasses} sees one shape. */
export class Leaf {
  constructor(
    readonly kind: number,
    readonly mask = 0,
    readonly set: ReadonlySet<unknown> | null = null,
    readonly regex: SchemaPattern | null = null,
    readonly low = Number.NEGATIVE_INFINITY,
    readonly high = Number.POSITIVE_INFINITY,
    readonly above = Number.NEGATIVE_INFINITY,
    readonly below = Number.POSITIVE_INFINITY,
  ) {}
}

/** The leaf of a node that is not one: {@link leafPasses} is false, so the closure runs. */
export const NOT_A_LEAF = new Leaf(CALL);

/**
 * Does `value` pass the leaf's test? (When not, the node's closure decides.) Type tests,
 * the most common leaves, come first and are small enough for V8 to inline into the loops.
 */
export function leafPasses(leaf: Leaf, value: unknown): boolean {
  return leaf.kind === TYPES ? (typeBits(value) & leaf.mask) !== 0 : boundedPasses(leaf, value);
}

function boundedPasses(leaf: Leaf, value: unknown): boolean {
  switch (leaf.kind) {
    case ANY:
      return true;
    case ENUM:
      return (leaf.set as ReadonlySet<unknown>).has(value);
    case STRING_LENGTH:
      return typeof value === 'string' && value.length >= leaf.low && value.length <= leaf.high;
    case NUMBER_RANGE:
      return (
        (typeBits(value) & leaf.mask) !== 0 &&
        (value as number) >= leaf.low &&
        (value as number) <= leaf.high &&
        (value as number) > leaf.above &&
        (value as number) < leaf.below
      );
    case PATTERN:
      return typeof value === 'string' && (leaf.regex as SchemaPattern).test(value);
    default:
      return false;
  }
}

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
/** Does `key` never affect validity (`format` only while formats are not asserted)? */
export const isAnnotation = (key: string, formatsAsserted: boolean) =>
  ANNOTATIONS.has(key) && !(key === 'format' && formatsAsserted);
const ENUM_ONLY = new Set(['enum']);
const PATTERN_ONLY = new Set(['pattern']);

const numberOr = (value: unknown, fallback: number) =>
  typeof value === 'number' ? value : fallback;

/**
 * The leaf test of a schema object, or undefined when it is not a leaf: a string with length bounds or a `pattern` (`regex`, as
 * compiled for it); a number or integer with bounds; an enum of strings (when `type` is
 * absent or allows strings). Call only on schema objects whose keywords compiled without
 * error, in a dialect with the validation vocabulary.
 */
export function describeLeaf(
  schema: Record<string, unknown>,
  types: readonly JsonType[] | undefined,
  formatsAsserted: boolean,
  regex: SchemaPattern | undefined,
): Leaf | undefined {
  const keys = Object.keys(schema);
  const type = types?.length === 1 ? types[0] : undefined;
  const only = (allowed: ReadonlySet<string>) =>
    keys.every((key) => allowed.has(key) || isAnnotation(key, formatsAsserted));
  const some = (allowed: ReadonlySet<string>) => keys.some((key) => allowed.has(key));
  if (Array.isArray(schema.enum) && (types === undefined || types.includes('string'))) {
    const values = schema.enum;
    if (!values.every((value) => typeof value === 'string') || !only(ENUM_ONLY)) return undefined;
    return new Leaf(ENUM, 0, new Set<unknown>(values));
  }
  if (type === 'string' && some(STRING_BOUNDS) && only(STRING_BOUNDS)) {
    return new Leaf(
      STRING_LENGTH,
      0,
      null,
      null,
      2 * numberOr(schema.minLength, 0),
      numberOr(schema.maxLength, Number.POSITIVE_INFINITY),
    );
  }
  if (type === 'string' && regex !== undefined && only(PATTERN_ONLY)) {
    return new Leaf(PATTERN, 0, null, regex);
  }
  if ((type === 'number' || type === 'integer') && some(NUMBER_BOUNDS) && only(NUMBER_BOUNDS)) {
    return new Leaf(
      NUMBER_RANGE,
      TYPE_BIT[type],
      null,
      null,
      numberOr(schema.minimum, Number.NEGATIVE_INFINITY),
      numberOr(schema.maximum, Number.POSITIVE_INFINITY),
      numberOr(schema.exclusiveMinimum, Number.NEGATIVE_INFINITY),
      numberOr(schema.exclusiveMaximum, Number.POSITIVE_INFINITY),
    );
  }
  return undefined;
}

/** Is the schema object of `type` and annotations only (see {@link typeOnlyLeaf})? */
export function isTypeOnlyNode(schema: Record<string, unknown>, formatsAsserted: boolean): boolean {
  for (const key in schema) if (!isAnnotation(key, formatsAsserted)) return false;
  return true;
}

/** The leaf of a node of `type` (`types`; undefined: none) and annotations only. */
export function typeOnlyLeaf(types: readonly JsonType[] | undefined): Leaf {
  return types === undefined ? new Leaf(ANY) : new Leaf(TYPES, maskOf(types));
}

/**
 * The closure of a leaf node: its test first, the node's full closure (which also reports
 * issues) where the test fails.
 */
export function leafFirst(leaf: Leaf, full: Validate): Validate {
  return (data, st) => leafPasses(leaf, data) || full(data, st);
}
