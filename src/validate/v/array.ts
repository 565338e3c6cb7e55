import type { JsonSchemaObject } from '../json-schema.ts';
import { emitChild, type RefinementMap, requireBuilder } from './brand.ts';
import { type AnyBuilder, Builder, requireCount } from './builder.ts';
import type { Infer, InferInput } from './infer.ts';

/**
 * An array whose items all match one builder: `{ type: 'array', items }`.
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * v.array(v.string()).min(1).toJSON();
 * // → { type: 'array', items: { type: 'string' }, minItems: 1 }
 * ```
 */
export class ArrayBuilder<Item extends AnyBuilder> extends Builder<
  Infer<Item>[],
  InferInput<Item>[]
> {
  constructor(readonly item: Item) {
    super();
    requireBuilder('array', item);
  }

  protected emitNode(refinements: RefinementMap): JsonSchemaObject {
    return { type: 'array', items: emitChild(this.item, refinements) };
  }

  /** At least `count` items (`minItems`). @example `v.array(v.string()).min(1)` */
  min(count: number): this {
    return this.withKeyword({ minItems: requireCount('min', count) });
  }

  /** At most `count` items (`maxItems`). @example `v.array(v.string()).max(10)` */
  max(count: number): this {
    return this.withKeyword({ maxItems: requireCount('max', count) });
  }

  /** Exactly `count` items. @example `v.array(v.number()).length(3)` */
  length(count: number): this {
    const exact = requireCount('length', count);
    return this.withKeyword({ minItems: exact, maxItems: exact });
  }
}
