import type { JsonSchemaObject } from '../json-schema.ts';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from './types.ts';

/** Libraries whose schemas need a wrapper to expose JSON Schema, and the wrapper to use. */
const HOW_TO_CONVERT = new Map([
  [
    'valibot',
    'wrap it with toStandardJsonSchema(schema) from @valibot/to-json-schema, or pass toJsonSchema(schema)',
  ],
  [
    'zod',
    'use Zod 4.2 or later (its schemas carry ~standard.jsonSchema), or pass z.toJSONSchema(schema)',
  ],
]);

/**
 * The JSON Schema form (draft 2020-12) of a foreign Standard Schema, found without importing
 * its library: the Standard JSON Schema interface (`~standard.jsonSchema.input`, Zod 4.2+,
 * ArkType 2.1+, Valibot through `toStandardJsonSchema`), else a `toJsonSchema()` method
 * (older ArkType). The *input* form is used: it describes what a caller (a model) must send.
 * Throws a TypeError saying how to supply one when the schema has none.
 */
export function jsonSchemaOf(schema: StandardSchemaV1): JsonSchemaObject {
  const props = schema['~standard'] as StandardSchemaV1.Props &
    Partial<Pick<StandardJSONSchemaV1.Props, 'jsonSchema'>>;
  const converter = props.jsonSchema;
  if (typeof converter?.input === 'function') {
    return converter.input({ target: 'draft-2020-12' }) as JsonSchemaObject;
  }
  const method = (schema as { toJsonSchema?: unknown }).toJsonSchema;
  if (typeof method === 'function') return method.call(schema) as JsonSchemaObject;
  const vendor = String(props.vendor);
  const how =
    HOW_TO_CONVERT.get(vendor) ??
    'pass its JSON Schema instead, or a schema that implements Standard JSON Schema (~standard.jsonSchema)';
  throw new TypeError(`this ${vendor} schema has no JSON Schema form; ${how}`);
}
