/**
 * What fino accepts wherever a schema is expected, and how each kind becomes JSON Schema.
 */

import { describeValue } from './compiler/index.ts';
import type { JsonSchemaObject } from './json-schema.ts';
import { isStandardSchema } from './standard/is-standard-schema.ts';
import { jsonSchemaOf } from './standard/json-schema-of.ts';
import type { StandardSchemaV1 } from './standard/types.ts';
import { isBuilder } from './v/brand.ts';
import type { AnyBuilder } from './v/builder.ts';
import type { Infer } from './v/infer.ts';

export { compileStandard } from './standard/compile-standard.ts';
export { isStandardSchema } from './standard/is-standard-schema.ts';
export type { StandardJSONSchemaV1, StandardSchemaV1 } from './standard/types.ts';

/**
 * A schema in any form fino accepts: a `v` builder, a raw JSON Schema (an object or a
 * boolean; draft 2020-12, or draft-07 by `$schema`), or a Standard Schema object from another
 * library (Zod 4, Valibot, ArkType…). Raw schemas are typed as any `object` so that
 * interface-typed JSON Schemas (such as `JSONSchema7`) are accepted; they are checked when
 * compiled.
 */
export type SchemaLike = AnyBuilder | StandardSchemaV1 | JsonSchemaObject | object | boolean;

/**
 * The type a schema validates to: a builder's {@link Infer}, a Standard Schema's output
 * type, `unknown` for raw JSON Schema.
 *
 * @example
 * ```ts
 * import { type InferSchema, v } from 'fino:validate';
 *
 * type A = InferSchema<ReturnType<typeof v.string>>; // string
 * type B = InferSchema<{ type: 'string' }>; // unknown
 * ```
 */
export type InferSchema<S> = S extends AnyBuilder
  ? Infer<S>
  : S extends StandardSchemaV1
    ? StandardSchemaV1.InferOutput<S>
    : unknown;

/**
 * Turns any {@link SchemaLike} into plain JSON Schema: a builder's `toJSON()`, a raw JSON
 * Schema object itself (`true` becomes `{}`, `false` becomes `{ not: {} }`), a foreign
 * Standard Schema's JSON Schema form (see `compileStandard`). Throws a TypeError for
 * anything else, or for a foreign schema without a JSON Schema form.
 *
 * @example
 * ```ts
 * import { normalizeSchema, v } from 'fino:validate';
 *
 * normalizeSchema(v.object({ q: v.string() }));
 * // → { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }
 * normalizeSchema(true); // → {}
 * ```
 */
export function normalizeSchema(schema: SchemaLike): JsonSchemaObject {
  if (isBuilder(schema)) return (schema as AnyBuilder).toJSON();
  if (isStandardSchema(schema)) return jsonSchemaOf(schema);
  if (schema === true) return {};
  if (schema === false) return { not: {} };
  if (typeof schema === 'object' && schema !== null && !Array.isArray(schema))
    return schema as JsonSchemaObject;
  throw new TypeError(
    `expected a schema (a v builder, a JSON Schema object or boolean, or a Standard Schema), received ${describeValue(schema)}`,
  );
}
