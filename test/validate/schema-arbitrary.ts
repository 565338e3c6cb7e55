/**
 * Generated JSON Schemas (draft 2020-12) for the differential test: the places where a
 * validator's keywords interact — `type` unions beside `enum`/`const`, `unevaluated*` seen
 * through `allOf`/`anyOf`/`oneOf`/`if`/`$ref`, `$dynamicRef` to an extended anchor, string
 * lengths in code points (with astral characters in the data). Not a test file.
 *
 * Property names come from a small pool so that generated data hits them; `pattern`,
 * `patternProperties`, `propertyNames`, `uniqueItems` and `format` are left out (other
 * tests cover them).
 */
import fc from 'fast-check';

type Schema = Record<string, unknown> | boolean;

const KEYS = ['a', 'b', 'c'];
const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'];

/** Values for `enum`/`const`, strings with astral characters among them. */
const enumValue = fc.constantFrom<unknown>(
  'a',
  'b',
  '💩',
  'a💩',
  '',
  0,
  1,
  2.5,
  -1,
  null,
  true,
  false,
  [],
  [1],
  {},
  { a: 1 },
);

const key = fc.constantFrom(...KEYS);
const small = fc.integer({ min: 0, max: 4 });

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.constant(true),
  fc.constant(false),
  fc.constantFrom(...TYPES).map((type) => ({ type })),
  fc
    .uniqueArray(fc.constantFrom(...TYPES), { minLength: 2, maxLength: 3 })
    .map((type) => ({ type })),
  fc
    .tuple(
      fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }),
      fc.uniqueArray(enumValue, { minLength: 1, maxLength: 4, comparator: 'SameValueZero' }),
    )
    .map(([type, values]) => ({ type: type.length === 1 ? type[0] : type, enum: values })),
  fc
    .uniqueArray(enumValue, { minLength: 1, maxLength: 4, comparator: 'SameValueZero' })
    .map((values) => ({ enum: values })),
  enumValue.map((value) => ({ const: value })),
  fc.tuple(small, small, fc.boolean()).map(([min, extra, typed]) => ({
    ...(typed ? { type: 'string' } : {}),
    minLength: min,
    maxLength: min + extra,
  })),
  fc.tuple(fc.integer({ min: -2, max: 2 }), small).map(([min, extra]) => ({
    type: 'number',
    minimum: min,
    maximum: min + extra,
  })),
);

/** Schemas that evaluate object properties, for `unevaluatedProperties` to see through. */
function propertiesOf(node: fc.Arbitrary<Schema>): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(fc.dictionary(key, node, { minKeys: 1, maxKeys: 2 }), fc.boolean())
    .map(([properties, typed]) => ({ ...(typed ? { type: 'object' } : {}), properties }));
}

/** Schemas that evaluate array items, for `unevaluatedItems` to see through. */
function itemsOf(node: fc.Arbitrary<Schema>): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    fc.array(node, { minLength: 1, maxLength: 2 }).map((prefixItems) => ({ prefixItems })),
    node.map((items) => ({ items })),
    node.map((contains) => ({ contains })),
  );
}

/** Marks a subschema to move to the root's `$defs` and reach by `$ref` ({@link withParts}). */
const PART = '$part';

/**
 * Moves every marked subschema to the root's `$defs` (`part0`, `part1`, …) and refers to it
 * by an absolute `$ref`, which resolves the same from any resource of the schema.
 */
function withParts(schema: Schema): Schema {
  if (typeof schema === 'boolean') return schema;
  const id = typeof schema.$id === 'string' ? schema.$id : 'https://fino.test/generated';
  const parts: Record<string, unknown> = {};
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) copy[k] = walk(v);
    if (!Object.hasOwn(copy, PART)) return copy;
    const name = `part${Object.keys(parts).length}`;
    parts[name] = copy[PART];
    return { $ref: `${id}#/$defs/${name}` };
  };
  const root = walk(schema) as Record<string, unknown>;
  if (Object.keys(parts).length === 0) return root;
  return { ...root, $id: id, $defs: { ...(root.$defs as object), ...parts } };
}

/** One combinator over in-place subschemas, or a `$ref` to one. */
function combined(
  parts: fc.Arbitrary<Record<string, unknown>>,
): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    fc.array(parts, { minLength: 1, maxLength: 2 }).map((allOf) => ({ allOf })),
    fc.array(parts, { minLength: 1, maxLength: 2 }).map((anyOf) => ({ anyOf })),
    fc.array(parts, { minLength: 1, maxLength: 2 }).map((oneOf) => ({ oneOf })),
    fc
      .tuple(parts, parts, fc.option(parts, { nil: undefined }))
      .map(([condition, then, otherwise]) => ({
        if: condition,
        then,
        ...(otherwise === undefined ? {} : { else: otherwise }),
      })),
    parts.map((target) => ({ [PART]: target })),
  );
}

const { node } = fc.letrec<{ node: Schema }>((tie) => {
  const inner = tie('node');
  return {
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc
        .tuple(
          fc.dictionary(key, inner, { maxKeys: 3 }),
          fc.subarray(KEYS),
          fc.option(fc.oneof(fc.constant(false), inner), { nil: undefined }),
        )
        .map(([properties, required, additionalProperties]) => ({
          type: 'object',
          properties,
          ...(required.length > 0 ? { required } : {}),
          ...(additionalProperties === undefined ? {} : { additionalProperties }),
        })),
      fc
        .tuple(
          fc.array(inner, { maxLength: 2 }),
          fc.option(fc.oneof(fc.constant(false), inner), { nil: undefined }),
        )
        .map(([prefixItems, items]) => ({
          type: 'array',
          ...(prefixItems.length > 0 ? { prefixItems } : {}),
          ...(items === undefined ? {} : { items }),
        })),
      fc.array(inner, { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
      fc.array(inner, { minLength: 1, maxLength: 3 }).map((oneOf) => ({ oneOf })),
      fc.array(inner, { minLength: 1, maxLength: 3 }).map((allOf) => ({ allOf })),
      inner.map((not) => ({ not })),
      fc
        .tuple(combined(propertiesOf(inner)), fc.oneof(fc.constant(false), inner))
        .map(([applicators, unevaluatedProperties]) => ({
          type: 'object',
          ...applicators,
          unevaluatedProperties,
        })),
      fc
        .tuple(combined(itemsOf(inner)), fc.oneof(fc.constant(false), inner))
        .map(([applicators, unevaluatedItems]) => ({
          type: 'array',
          ...applicators,
          unevaluatedItems,
        })),
    ),
  };
});

/**
 * A tree whose nodes' `$dynamicRef` resolves to the outermost `$dynamicAnchor` "node": the
 * root extends the generic tree with its own constraint on every node (including nested
 * ones), the case `$dynamicRef` exists for.
 */
const dynamicTree: fc.Arbitrary<Schema> = fc
  .tuple(node, node, fc.boolean())
  .map(([data, extension, closed]) => ({
    $id: 'https://fino.test/extended-tree',
    $dynamicAnchor: 'node',
    $ref: 'tree',
    ...(closed ? { unevaluatedProperties: false } : { allOf: [extension] }),
    $defs: {
      tree: {
        $id: 'tree',
        $dynamicAnchor: 'node',
        type: 'object',
        properties: {
          data,
          children: { type: 'array', items: { $dynamicRef: '#node' } },
        },
      },
    },
  }));

/** A generated draft 2020-12 schema. */
export const generatedSchema: fc.Arbitrary<Schema> = fc
  .oneof({ arbitrary: node, weight: 4 }, { arbitrary: dynamicTree, weight: 1 })
  .map(withParts);

/** Strings with astral characters and lengths around small bounds, for the data generator. */
export const astralStrings = ['💩', 'a💩', '💩💩', '💩💩💩', 'ab💩c', '\u{1F600}\u{1F601}x'];
