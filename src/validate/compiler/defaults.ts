import type { CompileContext, NodeInfo, SchemaNode } from './context.ts';

/** Returns the value with defaults applied: the same value when none applied. */
export type ApplyDefaults = (data: unknown) => unknown;

type SchemaObject = Record<string, unknown>;

const isObject = (value: unknown): value is SchemaObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets an own data property, also for `__proto__` (plain assignment would change the prototype). */
function define(target: SchemaObject, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else target[key] = value;
}

/** A shallow copy of a plain object's own enumerable properties, safe for any key. */
function copyObject(source: SchemaObject): SchemaObject {
  const copy: SchemaObject = {};
  for (const key of Object.keys(source)) define(copy, key, source[key]);
  return copy;
}

interface PropertyDefault {
  key: string;
  hasDefault: boolean;
  value: unknown;
  inner: ApplyDefaults | null;
}

function applyToObject(entries: PropertyDefault[]): ApplyDefaults {
  return (data) => {
    if (!isObject(data)) return data;
    let copy: SchemaObject | null = null;
    for (const entry of entries) {
      const current = Object.hasOwn(data, entry.key) ? data[entry.key] : undefined;
      if (current === undefined) {
        if (!entry.hasDefault) continue;
        copy ??= copyObject(data);
        define(copy, entry.key, structuredClone(entry.value));
      } else if (entry.inner !== null) {
        const next = entry.inner(current);
        if (next === current) continue;
        copy ??= copyObject(data);
        define(copy, entry.key, next);
      }
    }
    return copy ?? data;
  };
}

function applyToItems(each: (index: number) => ApplyDefaults | null): ApplyDefaults {
  return (data) => {
    if (!Array.isArray(data)) return data;
    let copy: unknown[] | null = null;
    for (let i = 0; i < data.length; i++) {
      const apply = each(i);
      if (apply === null) continue;
      const next = apply(data[i]);
      if (next === data[i]) continue;
      copy ??= [...data];
      copy[i] = next;
    }
    return copy ?? data;
  };
}

/**
 * Compiles the application of `default`s for missing object properties: along
 * `properties`, array items, `allOf` and `$ref` (not through `anyOf`/`oneOf`/`if`, where
 * which branch applies is a guess). Copy-on-write: only objects and arrays on the path
 * to an inserted default are copied; everything else is shared with the input, which is
 * never mutated. Null when the schema has no default to apply.
 */
export function compileDefaults(
  ctx: CompileContext,
  root: SchemaNode,
  rootInfo: NodeInfo,
): ApplyDefaults | null {
  const memo = new Map<object, ApplyDefaults | null | 'pending'>();

  const applierFor = (node: unknown, parent: NodeInfo): ApplyDefaults | null => {
    if (!isObject(node)) return null;
    const known = memo.get(node);
    if (known === 'pending') {
      return (data) => {
        const apply = memo.get(node);
        return typeof apply === 'function' ? apply(data) : data;
      };
    }
    if (known !== undefined) return known;
    memo.set(node, 'pending');
    const info = ctx.infoOf(node) ?? parent;
    const parts: ApplyDefaults[] = [];
    const refOnly = info.dialect.draft === 7 && typeof node.$ref === 'string';
    if (typeof node.$ref === 'string') {
      const target = ctx.resolve(node.$ref, info, '$ref');
      const apply = applierFor(target.node, target.info);
      if (apply !== null) parts.push(apply);
    }
    if (!refOnly) {
      if (isObject(node.properties)) {
        const properties = node.properties;
        const entries: PropertyDefault[] = [];
        for (const key of Object.keys(properties)) {
          const sub = properties[key];
          const hasDefault = isObject(sub) && Object.hasOwn(sub, 'default');
          const inner = applierFor(sub, info);
          if (hasDefault || inner !== null) {
            entries.push({
              key,
              hasDefault,
              value: hasDefault ? (sub as SchemaObject).default : undefined,
              inner,
            });
          }
        }
        if (entries.length > 0) parts.push(applyToObject(entries));
      }
      const tuple =
        info.dialect.draft === 7 || Array.isArray(node.items) ? node.items : node.prefixItems;
      const prefix = Array.isArray(tuple) ? tuple.map((sub) => applierFor(sub, info)) : [];
      const restSchema = Array.isArray(node.items) ? node.additionalItems : node.items;
      const rest = Array.isArray(restSchema) ? null : applierFor(restSchema, info);
      if (prefix.some((apply) => apply !== null) || rest !== null) {
        parts.push(applyToItems((i) => (i < prefix.length ? prefix[i] : rest)));
      }
      if (Array.isArray(node.allOf)) {
        for (const sub of node.allOf) {
          const apply = applierFor(sub, info);
          if (apply !== null) parts.push(apply);
        }
      }
    }
    const result: ApplyDefaults | null =
      parts.length === 0
        ? null
        : parts.length === 1
          ? parts[0]
          : (data) => parts.reduce((value, apply) => apply(value), data);
    memo.set(node, result);
    return result;
  };

  return applierFor(root, rootInfo);
}
