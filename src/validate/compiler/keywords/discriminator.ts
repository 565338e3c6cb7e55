import { describeValue, showList } from '../describe.ts';
import { once } from '../once.ts';
import { branch, passes, report, type Validate } from '../state.ts';
import type { NodeScope } from './scope.ts';

type SchemaObject = Record<string, unknown>;

const isObject = (value: unknown): value is SchemaObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value a branch pins its tag property to, with `const` or a one-value `enum`. */
function pinnedTag(branchSchema: unknown, property: string): { tag: unknown } | undefined {
  if (!isObject(branchSchema) || !isObject(branchSchema.properties)) return undefined;
  const tagSchema = branchSchema.properties[property];
  if (!isObject(tagSchema)) return undefined;
  if (Object.hasOwn(tagSchema, 'const')) return { tag: tagSchema.const };
  if (Array.isArray(tagSchema.enum) && tagSchema.enum.length === 1)
    return { tag: tagSchema.enum[0] };
  return undefined;
}

/**
 * `oneOf` with an OpenAPI-style `discriminator: { propertyName }`: when every branch pins
 * the tag property to a distinct primitive, the tag picks the one branch to validate in
 * O(1). A missing or unknown tag is one issue listing the allowed tags. The result is
 * the one `oneOf` (`generic`, the check without the discriminator) would give; undefined
 * when the branches do not all pin a tag.
 */
export function compileDiscriminator(
  scope: NodeScope,
  branches: Validate[],
  generic: Validate,
): Validate | undefined {
  const { read, ctx, info } = scope;
  const discriminator = read.schema.discriminator;
  if (!isObject(discriminator) || typeof discriminator.propertyName !== 'string') return undefined;
  const property = discriminator.propertyName;
  const schemas = read.schema.oneOf as unknown[];
  const byTag = new Map<unknown, Validate>();
  for (let i = 0; i < schemas.length; i++) {
    let schema = schemas[i];
    if (isObject(schema) && typeof schema.$ref === 'string') {
      schema = ctx.resolve(schema.$ref, ctx.infoOf(schema) ?? info, `oneOf/${i}/$ref`).node;
    }
    const pinned = pinnedTag(schema, property);
    if (
      pinned === undefined ||
      (pinned.tag !== null && typeof pinned.tag === 'object') ||
      byTag.has(pinned.tag)
    ) {
      return undefined;
    }
    byTag.set(pinned.tag, branches[i]);
  }
  const tags = [...byTag.keys()];
  const shownTags = once(() => showList(tags));
  return (data, st) => {
    if (!isObject(data)) return generic(data, st);
    const tag = Object.hasOwn(data, property) ? data[property] : undefined;
    const chosen = byTag.get(tag);
    if (chosen !== undefined) return branch(chosen, data, st);
    if (passes(generic, data, st)) return true;
    if (st.issues === null) return false;
    const message =
      tag === undefined
        ? `missing required property "${property}"; expected one of ${shownTags()}`
        : `expected one of ${shownTags()}, received ${describeValue(tag)}`;
    return report(st, 'discriminator', message, tag, property);
  };
}
