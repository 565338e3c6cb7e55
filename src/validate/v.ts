/**
 * The `v` schema builders: typed, immutable descriptions of JSON Schema.
 */
import {
  type AnyBuilder,
  AnyValueBuilder,
  ArrayBuilder,
  BooleanBuilder,
  type Builder,
  DiscriminatedUnionBuilder,
  EnumBuilder,
  IntersectionBuilder,
  LiteralBuilder,
  NullBuilder,
  NumberBuilder,
  ObjectBuilder,
  type Primitive,
  RecordBuilder,
  requirePrimitive,
  type Shape,
  StringBuilder,
  type TaggedObject,
  TupleBuilder,
  UnionBuilder,
} from './v/index.ts';

export {
  type AnyBuilder,
  AnyValueBuilder,
  ArrayBuilder,
  BooleanBuilder,
  Builder,
  type BuiltSchema,
  buildSchema,
  DiscriminatedUnionBuilder,
  EnumBuilder,
  FINO_SCHEMA,
  type Infer,
  type InferInput,
  IntersectionBuilder,
  isBuilder,
  type KnownFormat,
  LiteralBuilder,
  NullBuilder,
  NumberBuilder,
  ObjectBuilder,
  type ObjectInput,
  type ObjectOutput,
  type Optionality,
  type Primitive,
  RecordBuilder,
  type RecordOf,
  type RefinementCheck,
  type RefinementMap,
  type Shape,
  StringBuilder,
  type TaggedObject,
  TupleBuilder,
  UnionBuilder,
} from './v/index.ts';

function record<V extends AnyBuilder>(values: V): RecordBuilder<Builder<string>, V>;
function record<K extends Builder<string, any, any>, V extends AnyBuilder>(
  keys: K,
  values: V,
): RecordBuilder<K, V>;
function record(keysOrValues: AnyBuilder, values?: AnyBuilder): RecordBuilder<any, AnyBuilder> {
  return values === undefined
    ? new RecordBuilder(undefined, keysOrValues)
    : new RecordBuilder(keysOrValues, values);
}

/**
 * Schema builders. Each returns an immutable builder that serializes to JSON Schema draft
 * 2020-12 (`toJSON()`), carries its static type (`Infer<typeof schema>`), validates through
 * `compile`/`parse`/`safeParse`, and implements Standard Schema v1.
 *
 * @example
 * ```ts
 * import { type Infer, parse, v } from 'fino:validate';
 *
 * const args = v.object({
 *   city: v.string().describe('City name'),
 *   unit: v.enum(['celsius', 'fahrenheit']).default('celsius'),
 *   days: v.integer().min(1).max(7).optional(),
 * });
 * type Args = Infer<typeof args>; // { city: string; unit: 'celsius' | 'fahrenheit'; days?: number }
 * parse(args, { city: 'Lisbon' }); // → { city: 'Lisbon', unit: 'celsius' }
 * ```
 */
export const v = {
  /** Any value (`{}`). @example `v.any()` */
  any: (): AnyValueBuilder => new AnyValueBuilder(),
  /** A string (`{ type: 'string' }`). @example `v.string().min(1)` */
  string: (): StringBuilder => new StringBuilder(),
  /** A number (`{ type: 'number' }`). @example `v.number().min(0)` */
  number: (): NumberBuilder => new NumberBuilder('number'),
  /** An integer (`{ type: 'integer' }`). @example `v.integer().max(100)` */
  integer: (): NumberBuilder => new NumberBuilder('integer'),
  /** `true` or `false`. @example `v.boolean()` */
  boolean: (): BooleanBuilder => new BooleanBuilder(),
  /** `null`. @example `v.null()` */
  null: (): NullBuilder => new NullBuilder(),
  /** Exactly one value (`const`). @example `v.literal('circle')` */
  literal: <const T extends Primitive>(value: T): LiteralBuilder<T> =>
    new LiteralBuilder(requirePrimitive('literal', value) as T),
  /** One of a list of values (`enum`). @example `v.enum(['asc', 'desc'])` */
  enum: <const T extends readonly [Primitive, ...Primitive[]]>(
    values: T,
  ): EnumBuilder<T[number]> => {
    if (!Array.isArray(values) || values.length === 0) {
      throw new TypeError('enum: expected a non-empty array of values, e.g. ["asc", "desc"]');
    }
    for (const [index, value] of values.entries()) requirePrimitive(`enum[${index}]`, value);
    return new EnumBuilder<T[number]>(values);
  },
  /** An array of items matching one builder. @example `v.array(v.string())` */
  array: <Item extends AnyBuilder>(item: Item): ArrayBuilder<Item> => new ArrayBuilder(item),
  /** A fixed-length array, one builder per position. @example `v.tuple([v.number(), v.number()])` */
  tuple: <const Items extends readonly AnyBuilder[]>(items: Items): TupleBuilder<Items> =>
    new TupleBuilder(items),
  /** An object with known properties. @example `v.object({ id: v.string() })` */
  object: <S extends Shape>(shape: S): ObjectBuilder<S> => new ObjectBuilder(shape),
  /** A map of string keys to values of one builder. @example `v.record(v.number())` */
  record,
  /** At least one of several builders (`anyOf`). @example `v.union([v.string(), v.number()])` */
  union: <const Options extends readonly [AnyBuilder, ...AnyBuilder[]]>(
    options: Options,
  ): UnionBuilder<Options> => new UnionBuilder(options),
  /** All of several builders (`allOf`). @example `v.intersection([a, b])` */
  intersection: <const Parts extends readonly [AnyBuilder, ...AnyBuilder[]]>(
    parts: Parts,
  ): IntersectionBuilder<Parts> => new IntersectionBuilder(parts),
  /**
   * Objects told apart by a tag property (`oneOf` + `discriminator`).
   * @example `v.discriminatedUnion('kind', [v.object({ kind: v.literal('a') }), v.object({ kind: v.literal('b') })])`
   */
  discriminatedUnion: <
    Tag extends string,
    const Branches extends readonly [TaggedObject<Tag>, ...TaggedObject<Tag>[]],
  >(
    tag: Tag,
    branches: Branches,
  ): DiscriminatedUnionBuilder<Tag, Branches> => new DiscriminatedUnionBuilder(tag, branches),
} as const;
