import type { JsonSchemaObject } from '../json-schema.ts';
import { emitChild, type RefinementMap } from './brand.ts';
import { type AnyBuilder, Builder } from './builder.ts';
import type { Infer, InferInput, UnionToIntersection } from './infer.ts';
import { requireOptions } from './union.ts';

/**
 * A value matching all of several builders: `{ allOf }`. Note that a `.strict()` object in
 * an intersection rejects the other parts' properties, as `additionalProperties` in `allOf`
 * does in JSON Schema.
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * v.intersection([v.object({ a: v.string() }), v.object({ b: v.number() })]).toJSON();
 * // → { allOf: [{ type: 'object', … required: ['a'] }, { type: 'object', … required: ['b'] }] }
 * ```
 */
export class IntersectionBuilder<Parts extends readonly AnyBuilder[]> extends Builder<
  UnionToIntersection<Infer<Parts[number]>>,
  UnionToIntersection<InferInput<Parts[number]>>
> {
  readonly parts: Parts;

  constructor(parts: Parts) {
    super();
    this.parts = requireOptions('intersection', parts);
  }

  protected emitNode(refinements: RefinementMap): JsonSchemaObject {
    return { allOf: this.parts.map((part) => emitChild(part, refinements)) };
  }
}
