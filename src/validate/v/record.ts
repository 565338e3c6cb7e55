import type { JsonSchemaObject } from '../json-schema.ts';
import { emitChild, type RefinementMap, requireBuilder } from './brand.ts';
import { type AnyBuilder, Builder } from './builder.ts';
import type { Infer, InferInput } from './infer.ts';

/** A record keyed by `K`: every key when `K` is `string`, else any subset of the keys. */
export type RecordOf<K extends PropertyKey, V> = string extends K
  ? Record<string, V>
  : Partial<Record<K, V>>;

/**
 * An object used as a map: every property value matches one builder
 * (`{ type: 'object', additionalProperties }`), and keys optionally match a string builder
 * (`propertyNames`).
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * v.record(v.string().pattern('^[a-z]+$'), v.number()).toJSON();
 * // → { type: 'object', propertyNames: { type: 'string', pattern: '^[a-z]+$' },
 * //     additionalProperties: { type: 'number' } }
 * ```
 */
export class RecordBuilder<
  K extends Builder<string, any, any>,
  V extends AnyBuilder,
> extends Builder<RecordOf<Infer<K>, Infer<V>>, RecordOf<InferInput<K>, InferInput<V>>> {
  constructor(
    readonly keys: K | undefined,
    readonly values: V,
  ) {
    super();
    if (keys !== undefined) requireBuilder('record keys', keys);
    requireBuilder('record values', values);
  }

  protected emitNode(refinements: RefinementMap): JsonSchemaObject {
    const node: JsonSchemaObject = { type: 'object' };
    if (this.keys !== undefined) node.propertyNames = emitChild(this.keys, refinements);
    node.additionalProperties = emitChild(this.values, refinements);
    return node;
  }
}
