import type { JsonSchemaObject } from '../json-schema.ts';
import { emitChild, type RefinementMap, requireBuilder } from './brand.ts';
import { type AnyBuilder, Builder } from './builder.ts';
import type { TupleInput, TupleOutput } from './infer.ts';

/**
 * An array of fixed length with one builder per position:
 * `{ type: 'array', prefixItems, items: false, minItems }`.
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * v.tuple([v.number(), v.number()]).toJSON();
 * // → { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false, minItems: 2 }
 * ```
 */
export class TupleBuilder<Items extends readonly AnyBuilder[]> extends Builder<
  TupleOutput<Items>,
  TupleInput<Items>
> {
  readonly items: Items;

  constructor(items: Items) {
    super();
    if (!Array.isArray(items)) throw new TypeError('tuple: expected an array of v builders');
    for (const [index, item] of items.entries()) requireBuilder(`tuple[${index}]`, item);
    this.items = [...items] as unknown as Items;
  }

  protected emitNode(refinements: RefinementMap): JsonSchemaObject {
    return {
      type: 'array',
      prefixItems: this.items.map((item) => emitChild(item, refinements)),
      items: false,
      minItems: this.items.length,
    };
  }
}
