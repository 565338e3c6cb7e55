import type { AnyBuilder } from './builder.ts';

/**
 * The type of a valid value parsed by a builder (defaults applied).
 *
 * @example
 * ```ts
 * import { type Infer, v } from 'fino:validate';
 *
 * const args = v.object({ a: v.string(), b: v.number().optional() });
 * type Args = Infer<typeof args>; // { a: string; b?: number }
 * ```
 */
export type Infer<B extends AnyBuilder> = B['~types']['output'];

/**
 * The type a builder accepts as input: like {@link Infer}, but properties with a default
 * may be absent.
 *
 * @example
 * ```ts
 * import { type InferInput, v } from 'fino:validate';
 *
 * const args = v.object({ limit: v.integer().default(10) });
 * type Args = InferInput<typeof args>; // { limit?: number }
 * ```
 */
export type InferInput<B extends AnyBuilder> = B['~types']['input'];

/** The properties of an object builder. */
export type Shape = { readonly [key: string]: AnyBuilder };

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type KeysWhere<S extends Shape, Opt> = {
  [K in keyof S]: S[K]['~types']['opt'] extends Opt ? K : never;
}[keyof S];

/** The parsed type of an object with these properties. */
export type ObjectOutput<S extends Shape> = Simplify<
  { -readonly [K in Exclude<keyof S, KeysWhere<S, 'optional'>>]: Infer<S[K]> } & {
    -readonly [K in KeysWhere<S, 'optional'>]?: Infer<S[K]>;
  }
>;

/** The input type of an object with these properties. */
export type ObjectInput<S extends Shape> = Simplify<
  {
    -readonly [K in Exclude<keyof S, KeysWhere<S, 'optional' | 'defaulted'>>]: InferInput<S[K]>;
  } & {
    -readonly [K in KeysWhere<S, 'optional' | 'defaulted'>]?: InferInput<S[K]>;
  }
>;

/** Each builder of a tuple replaced by its parsed type. */
export type TupleOutput<T extends readonly AnyBuilder[]> = {
  -readonly [K in keyof T]: Infer<T[K]>;
};

/** Each builder of a tuple replaced by its input type. */
export type TupleInput<T extends readonly AnyBuilder[]> = {
  -readonly [K in keyof T]: InferInput<T[K]>;
};

/** Turns a union into an intersection (for `v.intersection`). */
export type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (
  x: infer I,
) => void
  ? I
  : never;
