import type { JsonSchemaObject } from '../json-schema.ts';

const SUBSCHEMA = ['additionalProperties', 'propertyNames', 'items', 'not'] as const;
const SUBSCHEMA_LISTS = ['anyOf', 'allOf', 'oneOf'] as const;

/**
 * Rewrites a builder's draft 2020-12 schema for draft-07: tuples (`prefixItems` +
 * `items: false`) become `items: [...]` + `additionalItems: false`. Builders emit no other
 * keyword that differs between the two drafts.
 */
export function toDraft07(schema: JsonSchemaObject): JsonSchemaObject {
  const out: JsonSchemaObject = { ...schema };
  if (isSchema(schema.properties)) {
    const properties: JsonSchemaObject = {};
    for (const [key, value] of Object.entries(schema.properties)) {
      Object.defineProperty(properties, key, {
        value: convert(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    out.properties = properties;
  }
  for (const keyword of SUBSCHEMA) {
    if (keyword in schema) out[keyword] = convert(schema[keyword]);
  }
  for (const keyword of SUBSCHEMA_LISTS) {
    if (Array.isArray(schema[keyword])) out[keyword] = schema[keyword].map(convert);
  }
  if (Array.isArray(schema.prefixItems)) {
    out.items = schema.prefixItems.map(convert);
    delete out.prefixItems;
    if ('items' in schema) out.additionalItems = convert(schema.items);
  }
  return out;
}

const isSchema = (value: unknown): value is JsonSchemaObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const convert = (value: unknown): unknown => (isSchema(value) ? toDraft07(value) : value);
