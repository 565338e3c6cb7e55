import {
  isRecord,
  type JsonSchemaObject,
  pointer,
  refTarget,
  type SchemaConversion,
  type SchemaWarning,
  SILENT_KEYWORDS,
} from '../core/index.ts';

const KEPT = new Set([
  'description',
  'title',
  'nullable',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'default',
  'example',
  'propertyOrdering',
]);
const FORMATS: Record<string, Set<string>> = {
  string: new Set(['enum', 'date-time']),
  integer: new Set(['int32', 'int64']),
  number: new Set(['float', 'double']),
};

interface Context {
  root: JsonSchemaObject;
  warnings: SchemaWarning[];
  /** References being inlined, to stop at recursion. */
  refs: string[];
}

/**
 * Converts a JSON Schema to the OpenAPI 3.0 subset that Gemini-style function declarations
 * accept: local `$ref`s are inlined, `type: [t, 'null']` and `null` branches become
 * `nullable: true` (`oneOf: [X, null]` is a nullable X), `const` becomes a one-value
 * `enum`, a `oneOf` of several branches becomes `anyOf`, and unsupported keywords are
 * removed. Each change that loses meaning is a warning, `additionalProperties: false`
 * included (the model may then send other keys; the tool's own validation still refuses them).
 *
 * @example
 * ```ts
 * import { toGeminiSchema } from 'fino:ai/model';
 *
 * const { schema, warnings } = toGeminiSchema({
 *   type: 'object',
 *   properties: { unit: { const: 'C' }, note: { oneOf: [{ type: 'string' }, { type: 'null' }] } },
 *   additionalProperties: false,
 * });
 * console.log(schema); // { type: 'object', properties: { unit: { type: 'string', enum: ['C'] }, note: { type: 'string', nullable: true } } }
 * console.log(warnings); // [{ path: '', keyword: 'additionalProperties', message: 'additionalProperties: false is not supported: removed; …' }]
 * ```
 */
export function toGeminiSchema(schema: JsonSchemaObject): SchemaConversion {
  const context: Context = { root: schema, warnings: [], refs: [] };
  return { schema: convert(schema, '', context), warnings: context.warnings };
}

function convert(node: JsonSchemaObject, path: string, context: Context): JsonSchemaObject {
  const warn = (keyword: string, message: string) =>
    context.warnings.push({ path, keyword, message });
  if (typeof node.$ref === 'string') return inline(node.$ref, node, path, context);
  const out: JsonSchemaObject = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (KEPT.has(keyword)) out[keyword] = value;
    else if (keyword === 'type') setType(out, value, warn);
    else if (keyword === 'format') {
      const allowed = FORMATS[String(node.type)];
      if (typeof value === 'string' && allowed?.has(value)) out.format = value;
      else warn('format', `format ${JSON.stringify(value)} is not supported: removed`);
    } else if (keyword === 'enum' && Array.isArray(value)) setEnum(out, value, warn);
    else if (keyword === 'const') setEnum(out, [value], warn);
    else if (keyword === 'required' && Array.isArray(value)) out.required = value;
    else if (keyword === 'properties' && isRecord(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([key, child]) => [
          key,
          isRecord(child) ? convert(child, pointer(path, 'properties', key), context) : {},
        ]),
      );
    } else if (keyword === 'items' && isRecord(value)) {
      out.items = convert(value, pointer(path, 'items'), context);
    } else if ((keyword === 'anyOf' || keyword === 'oneOf') && Array.isArray(value)) {
      setBranches(out, keyword, value, path, context);
    } else if (keyword === 'additionalProperties' && value === false) {
      warn(
        'additionalProperties',
        'additionalProperties: false is not supported: removed; the model may send keys beyond the listed properties (the tool still validates its arguments against the original schema)',
      );
    } else if (keyword === 'additionalProperties' && (value === true || isEmpty(value))) {
      // Any extra key allowed: the default, so nothing is lost.
    } else if (keyword !== '$defs' && keyword !== 'definitions' && !SILENT_KEYWORDS.has(keyword)) {
      warn(keyword, `${keyword} is not supported: removed`);
    }
  }
  return out;
}

function inline(
  ref: string,
  node: JsonSchemaObject,
  path: string,
  context: Context,
): JsonSchemaObject {
  const target = refTarget(ref, context.root);
  const warn = (message: string) => context.warnings.push({ path, keyword: '$ref', message });
  if (!isRecord(target)) {
    warn(`reference ${ref} cannot be resolved locally: replaced by an unconstrained schema`);
    return {};
  }
  if (context.refs.includes(ref)) {
    warn(`recursive reference ${ref} cannot be expressed: replaced by a plain object`);
    return { type: 'object' };
  }
  context.refs.push(ref);
  const { $ref: _ref, ...siblings } = node;
  const out = convert({ ...target, ...siblings }, path, context);
  context.refs.pop();
  return out;
}

function setType(
  out: JsonSchemaObject,
  value: unknown,
  warn: (k: string, m: string) => void,
): void {
  if (!Array.isArray(value)) {
    out.type = value;
    return;
  }
  const types = value.filter((t) => t !== 'null');
  if (types.length < value.length) out.nullable = true;
  if (types.length === 1) out.type = types[0];
  else if (types.length > 1) {
    out.anyOf = types.map((type) => ({ type }));
    warn('type', `type ${JSON.stringify(value)} became anyOf of single types`);
  }
}

function setEnum(
  out: JsonSchemaObject,
  values: unknown[],
  warn: (k: string, m: string) => void,
): void {
  const strings = values.filter((v) => typeof v === 'string');
  if (values.includes(null)) out.nullable = true;
  if (strings.length === values.filter((v) => v !== null).length) {
    out.type = 'string';
    out.enum = strings;
    return;
  }
  warn('enum', `non-string values ${JSON.stringify(values)} cannot be an enum: removed`);
}

/**
 * `anyOf` / `oneOf` branches: `null` branches become `nullable: true`; one branch left is
 * merged into the node (nothing lost, so no warning); several stay as `anyOf`, and a
 * `oneOf` then says that exclusivity is lost.
 */
function setBranches(
  out: JsonSchemaObject,
  keyword: 'anyOf' | 'oneOf',
  branches: unknown[],
  path: string,
  context: Context,
): void {
  const kept: JsonSchemaObject[] = [];
  const at = pointer(path, keyword);
  branches.forEach((branch, i) => {
    if (isRecord(branch) && branch.type === 'null' && Object.keys(branch).length === 1) {
      out.nullable = true;
    } else if (isRecord(branch)) {
      kept.push(convert(branch, pointer(at, i), context));
    }
  });
  if (kept.length === 1) Object.assign(out, kept[0], out.nullable ? { nullable: true } : {});
  else if (kept.length > 1) {
    out.anyOf = kept;
    if (keyword === 'oneOf') {
      context.warnings.push({
        path,
        keyword,
        message: 'oneOf became anyOf: exclusivity is not enforced',
      });
    }
  } else {
    context.warnings.push({
      path,
      keyword,
      message: `${keyword} has no branch but null, which Gemini cannot express: only nullable was kept`,
    });
  }
}

function isEmpty(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).length === 0;
}

/**
 * The schema with its `type` names in the API's enum spelling (`OBJECT`, `STRING`, …),
 * as Google documents them and its SDK sends them.
 */
export function toGeminiWireSchema(schema: JsonSchemaObject): JsonSchemaObject {
  const out: JsonSchemaObject = { ...schema };
  if (typeof out.type === 'string') out.type = out.type.toUpperCase();
  if (isRecord(out.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([key, child]) => [
        key,
        isRecord(child) ? toGeminiWireSchema(child) : child,
      ]),
    );
  }
  if (isRecord(out.items)) out.items = toGeminiWireSchema(out.items);
  if (Array.isArray(out.anyOf)) {
    out.anyOf = out.anyOf.map((branch: unknown) =>
      isRecord(branch) ? toGeminiWireSchema(branch) : branch,
    );
  }
  return out;
}
