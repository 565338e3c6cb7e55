import { isRecord } from './is-record.ts';
import type { JsonSchemaObject } from './types.ts';

/** Keywords that only identify or annotate a schema: dropped by dialects without a warning. */
export const SILENT_KEYWORDS = new Set(['$schema', '$id', '$comment']);

/** Follows local `#/$defs/…` and `#/definitions/…` references to the schema they name. */
export function resolveRef(schema: unknown, root: unknown): unknown {
  let current = schema;
  for (let hops = 0; hops < 32 && isRecord(current) && typeof current.$ref === 'string'; hops++) {
    const target = refTarget(current.$ref, root);
    if (target === undefined) return current;
    current = target;
  }
  return current;
}

/** The schema a local reference points at, or `undefined` when it is not local or not found. */
export function refTarget(ref: string, root: unknown): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** Whether `schema` accepts `null` (an empty or boolean-true schema accepts anything). */
export function allowsNull(schema: unknown, root: unknown): boolean {
  const resolved = resolveRef(schema, root);
  if (resolved === true) return true;
  if (!isRecord(resolved)) return false;
  const { type } = resolved;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(resolved.enum)) return resolved.enum.includes(null);
  if ('const' in resolved) return resolved.const === null;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = resolved[keyword];
    if (Array.isArray(branches)) return branches.some((branch) => allowsNull(branch, root));
  }
  if (resolved.nullable === true) return true;
  return type === undefined && resolved.$ref === undefined && !Array.isArray(resolved.allOf);
}

/** Whether a schema describes an object (by type, or by listing properties). */
export function isObjectSchema(schema: JsonSchemaObject): boolean {
  const { type } = schema;
  return (
    type === 'object' ||
    (Array.isArray(type) && type.includes('object')) ||
    (type === undefined && isRecord(schema.properties))
  );
}

/** Appends a JSON Pointer segment, escaped. */
export function pointer(path: string, ...segments: (string | number)[]): string {
  return segments.reduce<string>(
    (p, s) => `${p}/${String(s).replaceAll('~', '~0').replaceAll('/', '~1')}`,
    path,
  );
}
