import type { JsonSchemaObject } from '../json-schema.ts';
import { emitChild, type RefinementMap, requireBuilder } from './brand.ts';
import { type AnyBuilder, Builder } from './builder.ts';
import { defineOwn } from './define-own.ts';
import type { ObjectInput, ObjectOutput, Shape } from './infer.ts';

/**
 * An object with known properties: `{ type: 'object', properties, required }`. A property
 * is required unless its builder is `.optional()` or has a `.default()`. Other properties are
 * allowed unless `.strict()` or `.additionalProperties(…)` says otherwise.
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * v.object({ city: v.string(), days: v.integer().optional() }).strict().toJSON();
 * // → { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } },
 * //     required: ['city'], additionalProperties: false }
 * ```
 */
export class ObjectBuilder<S extends Shape> extends Builder<ObjectOutput<S>, ObjectInput<S>> {
  readonly shape: S;
  private readonly extra: AnyBuilder | boolean | undefined = undefined;

  constructor(shape: S) {
    super();
    if (typeof shape !== 'object' || shape === null || Array.isArray(shape)) {
      throw new TypeError('object: expected an object of v builders, e.g. { name: v.string() }');
    }
    const copy = {} as S;
    for (const key of Object.keys(shape)) {
      requireBuilder(`object property "${key}"`, shape[key]);
      defineOwn(copy, key, shape[key]);
    }
    this.shape = copy;
  }

  protected emitNode(refinements: RefinementMap): JsonSchemaObject {
    const properties = {};
    const required: string[] = [];
    for (const key of Object.keys(this.shape)) {
      const property = this.shape[key];
      defineOwn(properties, key, emitChild(property, refinements));
      if (property.optionality === 'required') required.push(key);
    }
    const node: JsonSchemaObject = { type: 'object', properties };
    if (required.length > 0) node.required = required;
    if (this.extra !== undefined) {
      node.additionalProperties =
        typeof this.extra === 'boolean' ? this.extra : emitChild(this.extra, refinements);
    }
    return node;
  }

  /**
   * Sets what other properties may be: `false` forbids them, `true` allows any, a builder
   * validates each of them.
   *
   * @example
   * ```ts
   * import { v } from 'fino:validate';
   *
   * v.object({ id: v.string() }).additionalProperties(v.number()).toJSON().additionalProperties;
   * // → { type: 'number' }
   * ```
   */
  additionalProperties(extra: boolean | AnyBuilder): this {
    if (typeof extra !== 'boolean') requireBuilder('additionalProperties', extra);
    return this.with({ extra });
  }

  /**
   * Forbids properties that are not in the shape (`additionalProperties: false`).
   *
   * @example
   * ```ts
   * import { v } from 'fino:validate';
   *
   * v.object({ id: v.string() }).strict().toJSON().additionalProperties; // → false
   * ```
   */
  strict(): this {
    return this.additionalProperties(false);
  }
}
