/**
 * `validate/v`: the `v` schema builders — typed, immutable descriptions of JSON Schema
 * that `compile` turns into validators and `Infer` into TypeScript types. `../v.ts`
 * assembles the `v` object from them and is what `fino:validate` exports.
 *
 * The files: the base (`builder.ts`: `Builder` and its modifiers, `brand.ts`: what marks
 * a builder and carries its refinements, `build-schema.ts`: a builder's JSON Schema,
 * `nullable.ts`, `define-own.ts`, and the types of `infer.ts`); one file per kind:
 * `scalar.ts` (any, boolean, null, literal, enum), `string.ts`, `number.ts`,
 * `array.ts`, `tuple.ts`, `object.ts`, `record.ts`, `union.ts`,
 * `discriminated-union.ts`, `intersection.ts`.
 *
 * May import: the compiler through `../compiler/index.ts` (a string's `pattern`),
 * `../standard/` through its `index.ts` (a builder's `~standard`), the types of
 * `../json-schema.ts`, and `src/internal/`. `../v.ts` and `../standard/` import the
 * room through this file; `../compile.ts` and `../schema-like.ts` import `brand.ts`,
 * `build-schema.ts` (and types) directly, because `builder.ts` →
 * `../standard/builder-standard.ts` → `../compile.ts` (→ `../schema-like.ts`) would
 * make going through this file a runtime cycle.
 */
export { ArrayBuilder } from './array.ts';
export {
  type Emitter,
  FINO_SCHEMA,
  isBuilder,
  type RefinementCheck,
  type RefinementMap,
} from './brand.ts';
export { type BuiltSchema, buildSchema } from './build-schema.ts';
export { type AnyBuilder, Builder, type Optionality } from './builder.ts';
export { DiscriminatedUnionBuilder, type TaggedObject } from './discriminated-union.ts';
export type { Infer, InferInput, ObjectInput, ObjectOutput, Shape } from './infer.ts';
export { IntersectionBuilder } from './intersection.ts';
export { NumberBuilder } from './number.ts';
export { ObjectBuilder } from './object.ts';
export { RecordBuilder, type RecordOf } from './record.ts';
export {
  AnyValueBuilder,
  BooleanBuilder,
  EnumBuilder,
  LiteralBuilder,
  NullBuilder,
  type Primitive,
  requirePrimitive,
} from './scalar.ts';
export { type KnownFormat, StringBuilder } from './string.ts';
export { TupleBuilder } from './tuple.ts';
export { UnionBuilder } from './union.ts';
