import type { JsonSchemaObject } from '../json-schema.ts';
import { emitChild, type RefinementMap, requireBuilder } from './brand.ts';
import { type AnyBuilder, Builder } from './builder.ts';
import type { Infer, InferInput } from './infer.ts';

/** Throws unless `options` is a non-empty array of builders; returns a copy. */
export function requireOptions<T extends readonly AnyBuilder[]>(method: string, options: T): T {
  if (!Array.isArray(options) || options.length === 0) {
    throw new TypeError(`${method}: expected a non-empty array of v builders`);
  }
  for (const [index, option] of options.entries()) requireBuilder(`${method}[${index}]`, option);
  return [...options] as unknown as T;
}

/**
 * A value matching at least one of several builders: `{ anyOf }`. For objects told apart by
 * a tag property, `v.discriminatedUnion` validates faster and reports clearer issues.
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * v.union([v.string(), v.number()]).toJSON();
 * // → { anyOf: [{ type: 'string' }, { type: 'number' }] }
 * ```
 */
export class UnionBuilder<Options extends readonly AnyBuilder[]> extends Builder<
  Infer<Options[number]>,
  InferInput<Options[number]>
> {
  readonly options: Options;

  constructor(options: Options) {
    super();
    this.options = requireOptions('union', options);
  }

  protected emitNode(refinements: RefinementMap): JsonSchemaObject {
    return { anyOf: this.options.map((option) => emitChild(option, refinements)) };
  }
}
