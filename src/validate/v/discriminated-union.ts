import { describeValue } from '../../internal/describe-value.ts';
import type { JsonSchemaObject } from '../json-schema.ts';
import { emitChild, type RefinementMap } from './brand.ts';
import { Builder } from './builder.ts';
import type { Infer, InferInput, Shape } from './infer.ts';
import type { ObjectBuilder } from './object.ts';
import type { Primitive } from './scalar.ts';
import { requireOptions } from './union.ts';

/** An object builder whose `Tag` property is pinned to one value (a `v.literal`). */
export type TaggedObject<Tag extends string> = ObjectBuilder<
  Shape & { readonly [K in Tag]: Builder<Primitive, any, 'required'> }
>;

/**
 * Objects told apart by a tag property: `{ type: 'object', oneOf, discriminator }`. Each
 * branch pins the tag with `const` (write it with `v.literal`), and the OpenAPI-style
 * `discriminator: { propertyName }` lets the validator pick the branch by the tag alone, so
 * an issue comes from that branch only, and a missing or unknown tag lists the allowed ones.
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * const shape = v.discriminatedUnion('kind', [
 *   v.object({ kind: v.literal('circle'), radius: v.number() }),
 *   v.object({ kind: v.literal('square'), side: v.number() }),
 * ]);
 * shape.toJSON().discriminator; // → { propertyName: 'kind' }
 * ```
 */
export class DiscriminatedUnionBuilder<
  Tag extends string,
  Branches extends readonly TaggedObject<Tag>[],
> extends Builder<Infer<Branches[number]>, InferInput<Branches[number]>> {
  readonly branches: Branches;

  constructor(
    readonly tag: Tag,
    branches: Branches,
  ) {
    super();
    if (typeof tag !== 'string') {
      throw new TypeError(
        `discriminatedUnion: expected the tag property name, received ${describeValue(tag)}`,
      );
    }
    this.branches = requireOptions('discriminatedUnion', branches);
    requireDistinctTags(tag, this.branches);
  }

  protected emitNode(refinements: RefinementMap): JsonSchemaObject {
    return {
      type: 'object',
      oneOf: this.branches.map((branch) => emitChild(branch, refinements)),
      discriminator: { propertyName: this.tag },
    };
  }
}

/** Throws unless each branch is an object that requires `tag` with one distinct constant. */
function requireDistinctTags(tag: string, branches: readonly TaggedObject<string>[]): void {
  const seen = new Map<string, number>();
  branches.forEach((branch, index) => {
    const pinned = tagValue(branch.toJSON(), tag);
    if (pinned === undefined) {
      throw new TypeError(
        `discriminatedUnion[${index}]: expected an object whose required property "${tag}" is a v.literal(…)`,
      );
    }
    const key = JSON.stringify(pinned.value);
    const other = seen.get(key);
    if (other !== undefined) {
      throw new TypeError(
        `discriminatedUnion: branches ${other} and ${index} both have "${tag}" = ${key}; tags must be distinct`,
      );
    }
    seen.set(key, index);
  });
}

/** The value a branch pins its tag to (`const` or a one-value `enum`), or undefined. */
function tagValue(branch: JsonSchemaObject, tag: string): { value: unknown } | undefined {
  const properties = branch.properties as Record<string, JsonSchemaObject> | undefined;
  const required = branch.required as string[] | undefined;
  if (branch.type !== 'object' || !required?.includes(tag) || properties === undefined) return;
  const property = Object.hasOwn(properties, tag) ? properties[tag] : undefined;
  if (property === undefined) return;
  if ('const' in property) return { value: property.const };
  if (Array.isArray(property.enum) && property.enum.length === 1)
    return { value: property.enum[0] };
  return undefined;
}
