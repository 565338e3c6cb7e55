import {
  allowsNull,
  isObjectSchema,
  isRecord,
  type JsonSchemaObject,
  pointer,
  resolveRef,
  type SchemaConversion,
  type SchemaWarning,
  SILENT_KEYWORDS,
} from '../core/index.ts';

const KEPT = new Set([
  'type',
  'enum',
  'const',
  'description',
  'title',
  '$ref',
  'pattern',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
]);
const FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
const CHILD_MAPS = new Set(['properties', '$defs', 'definitions']);

/**
 * Rewrites a JSON Schema for OpenAI's strict mode (structured outputs): every object
 * gets `additionalProperties: false` and lists all its properties as required, optional
 * ones becoming nullable (the model sends `null` for "absent"); `oneOf` becomes `anyOf`;
 * keywords strict mode does not support are removed. Each change is a warning.
 * Undo the nullable rewrite on the model's arguments with {@link fromOpenAIStrictArgs}.
 *
 * @example
 * ```ts
 * import { toOpenAIStrictSchema } from 'fino:ai/model';
 *
 * const { schema, warnings } = toOpenAIStrictSchema({
 *   type: 'object',
 *   properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer' } },
 *   required: ['city'],
 * });
 * console.log(schema.required); // ['city', 'days']
 * console.log(schema.properties); // { city: { type: 'string' }, days: { type: ['integer', 'null'] } }
 * console.log(warnings.map((w) => w.path)); // ['/properties/city', '/properties/days']
 * ```
 */
export function toOpenAIStrictSchema(schema: JsonSchemaObject): SchemaConversion {
  const warnings: SchemaWarning[] = [];
  return { schema: convert(schema, '', { root: schema, warnings }), warnings };
}

interface Context {
  root: JsonSchemaObject;
  warnings: SchemaWarning[];
}

function convert(node: JsonSchemaObject, path: string, context: Context): JsonSchemaObject {
  const out: JsonSchemaObject = {};
  const warn = (keyword: string, message: string, at = path) =>
    context.warnings.push({ path: at, keyword, message });
  for (const [keyword, value] of Object.entries(node)) {
    if (KEPT.has(keyword)) out[keyword] = value;
    else if (keyword === 'format') {
      if (typeof value === 'string' && FORMATS.has(value)) out.format = value;
      else
        warn('format', `format ${JSON.stringify(value)} is not supported in strict mode: removed`);
    } else if (CHILD_MAPS.has(keyword) && isRecord(value)) {
      out[keyword] = Object.fromEntries(
        Object.entries(value).map(([key, child]) => [
          key,
          isRecord(child) ? convert(child, pointer(path, keyword, key), context) : child,
        ]),
      );
    } else if (keyword === 'items' && isRecord(value)) {
      out.items = convert(value, pointer(path, 'items'), context);
    } else if ((keyword === 'anyOf' || keyword === 'oneOf') && Array.isArray(value)) {
      if (keyword === 'oneOf') {
        warn('oneOf', 'oneOf became anyOf: strict mode does not enforce that exactly one matches');
      }
      const branches = value.map((branch, i) =>
        isRecord(branch) ? convert(branch, pointer(path, keyword, i), context) : branch,
      );
      out.anyOf = [...((out.anyOf as unknown[]) ?? []), ...branches];
    } else if (keyword === 'required' || keyword === 'additionalProperties') {
      // Rebuilt below for objects.
    } else if (!SILENT_KEYWORDS.has(keyword)) {
      warn(keyword, `${keyword} is not supported in strict mode: removed`);
    }
  }
  if (isObjectSchema(node)) strictObject(node, out, path, context.root, warn);
  return out;
}

function strictObject(
  node: JsonSchemaObject,
  out: JsonSchemaObject,
  path: string,
  root: JsonSchemaObject,
  warn: (keyword: string, message: string, at?: string) => void,
): void {
  const properties = (out.properties ?? {}) as Record<string, JsonSchemaObject>;
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  const extra = node.additionalProperties;
  if (extra !== undefined && extra !== false) {
    warn('additionalProperties', 'strict mode allows no keys beyond the listed properties');
  } else if (node.properties === undefined) {
    warn('properties', 'an object without listed properties can only be empty in strict mode');
  }
  for (const [key, child] of Object.entries(properties)) {
    if (required.has(key)) continue;
    const originalChild = (node.properties as Record<string, unknown>)[key];
    if (allowsNull(originalChild, root)) continue;
    properties[key] = nullable(child);
    warn(
      'required',
      `optional property "${key}" became required and nullable: the model sends null to leave it out`,
      pointer(path, 'properties', key),
    );
  }
  out.type = out.type ?? 'object';
  out.properties = properties;
  out.required = Object.keys(properties);
  out.additionalProperties = false;
}

function nullable(schema: JsonSchemaObject): JsonSchemaObject {
  const { type } = schema;
  if ((typeof type === 'string' || Array.isArray(type)) && !('const' in schema)) {
    const types = Array.isArray(type) ? type : [type];
    const out: JsonSchemaObject = { ...schema, type: [...types, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  return { anyOf: [schema, { type: 'null' }] };
}

/**
 * Undoes {@link toOpenAIStrictSchema}'s nullable rewrite on a model's arguments: a `null`
 * for a property the original schema made optional (and does not allow to be null) is
 * removed, at every depth, so the tool validates the shape its own schema describes.
 * Returns new objects; the input is not modified.
 *
 * @example
 * ```ts
 * import { fromOpenAIStrictArgs } from 'fino:ai/model';
 *
 * const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] };
 * console.log(fromOpenAIStrictArgs({ city: 'Oslo', days: null }, schema)); // { city: 'Oslo' }
 * ```
 */
export function fromOpenAIStrictArgs(args: unknown, schema: JsonSchemaObject): unknown {
  return strip(args, schema, schema);
}

function strip(value: unknown, node: unknown, root: unknown): unknown {
  const schema = resolveRef(node, root);
  if (!isRecord(schema)) return value;
  if (Array.isArray(value)) {
    return isRecord(schema.items) ? value.map((item) => strip(item, schema.items, root)) : value;
  }
  if (!isRecord(value)) return value;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  let out: Record<string, unknown> = Object.fromEntries(
    Object.entries(value).flatMap(([key, item]) => {
      if (!Object.hasOwn(properties, key)) return [[key, item]];
      const child = properties[key];
      if (item === null && !required.has(key) && !allowsNull(child, root)) return [];
      return [[key, strip(item, child, root)]];
    }),
  );
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) out = strip(out, branch, root) as Record<string, unknown>;
  }
  return out;
}
