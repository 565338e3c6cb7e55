import { type Leaf, leafPasses, NOT_A_LEAF, TYPES, typeBits } from './keywords/leaf.ts';
import type { State, Validate } from './state.ts';

/**
 * The fast pass over the shapes tool arguments are made of — objects of known properties
 * (`properties`, `required`, `additionalProperties`), arrays of one item schema with
 * length bounds, and leaves (leaf.ts) — run by one recursive function, {@link conforms},
 * over a description of the schema, instead of by each node's closure.
 *
 * Why: without generated code, every schema's closures are made from the same function
 * literals, so V8 sees one call site per literal for all schemas, its feedback turns
 * megamorphic, and every closure-to-closure call is an indirect call that is never
 * inlined (about 10–15 ns each, measured). Here the recursion calls a known function,
 * the leaf tests are inline, and per-node data is read from one class of object. A node
 * of any other shape keeps its closure (`CALL`), which the recursion calls.
 *
 * Only the fast pass (no issues collected, no annotations) runs here: the closures collect
 * the issues.
 */

type Data = Record<string, unknown>;

const CALL = 0;
const LEAF = 1;
export const OBJECT = 2;
export const ARRAY = 3;

/** The properties part of an object shape, as compiled by `properties.ts`. */
export interface ObjectParts {
  /** Keys named by `properties` or `required`, in that order. */
  keys: readonly string[];
  /** Key → index in {@link keys}, when there are too many to compare one by one. */
  byKey: Map<string, number> | null;
  /** Per key: the `properties` subschema's shape, or null for a key only `required` names. */
  children: readonly (Shape | null)[];
  /** Per key: 1 when required, else 0. */
  counts: readonly number[];
  requiredCount: number;
  /** `additionalProperties: false`. */
  closed: boolean;
  /** The `additionalProperties` subschema's shape; null when absent. */
  additional: Shape | null;
}

/** One node of the description. One class, so {@link conforms} reads one object shape. */
export class Shape {
  constructor(
    readonly kind: number,
    /** The node's closure: run for `CALL`, and where a leaf's test fails. */
    readonly validate: Validate,
    readonly leaf: Leaf,
    /** An object or array node whose `type` also allows `null`. */
    readonly nullable: boolean,
    /** An object or array node without `type`: values of other types are valid. */
    readonly untyped: boolean,
    readonly keys: readonly string[],
    readonly byKey: Map<string, number> | null,
    /** Per key: the subschema's shape, null for a key only `required` names. */
    readonly children: readonly (Shape | null)[],
    readonly counts: readonly number[],
    /** Per key: the types a type-only child allows (leaf.ts `TYPE_BIT`s), else 0. */
    readonly masks: readonly number[],
    readonly requiredCount: number,
    readonly closed: boolean,
    readonly additional: Shape | null,
    readonly items: Shape | null,
    readonly minItems: number,
    readonly maxItems: number,
  ) {}
}

/** The shape of a node that is none of the described ones: a call to its closure. */
export function callShape(validate: Validate): Shape {
  return leafShape(NOT_A_LEAF, validate);
}

/** The shape of a leaf node (`NOT_A_LEAF`: a call to its closure). */
export function leafShape(leaf: Leaf, validate: Validate): Shape {
  return new Shape(
    leaf === NOT_A_LEAF ? CALL : LEAF,
    validate,
    leaf,
    false,
    false,
    [],
    null,
    [],
    [],
    [],
    0,
    false,
    null,
    null,
    0,
    0,
  );
}

/** The properties part of an object node, as compiled by `properties.ts`. */
export function objectShape(validate: Validate, parts: ObjectParts): Shape {
  return new Shape(
    OBJECT,
    validate,
    NOT_A_LEAF,
    false,
    false,
    parts.keys,
    parts.byKey,
    parts.children,
    parts.counts,
    parts.children.map(typeMask),
    parts.requiredCount,
    parts.closed,
    parts.additional,
    null,
    0,
    0,
  );
}

/** An object node: its `properties` part, and its type (`nullable`, or `untyped`: none). */
export function typedShape(
  properties: Shape,
  validate: Validate,
  nullable: boolean,
  untyped: boolean,
): Shape {
  const p = properties;
  return new Shape(
    OBJECT,
    validate,
    NOT_A_LEAF,
    nullable,
    untyped,
    p.keys,
    p.byKey,
    p.children,
    p.counts,
    p.masks,
    p.requiredCount,
    p.closed,
    p.additional,
    null,
    0,
    0,
  );
}

/** The shape of an array node: its type, one item schema, and length bounds. */
export function arrayShape(
  validate: Validate,
  nullable: boolean,
  untyped: boolean,
  items: Shape,
  minItems: number,
  maxItems: number,
): Shape {
  return new Shape(
    ARRAY,
    validate,
    NOT_A_LEAF,
    nullable,
    untyped,
    [],
    null,
    [],
    [],
    [],
    0,
    false,
    null,
    items,
    minItems,
    maxItems,
  );
}

/** The slot of `key` among `keys` (through `byKey` when there are many), or -1. */
export function slotOf(
  keys: readonly string[],
  byKey: Map<string, number> | null,
  key: string,
): number {
  if (byKey !== null) return byKey.get(key) ?? -1;
  for (let i = 0; i < keys.length; i++) if (keys[i] === key) return i;
  return -1;
}

/** Is `value` valid against the node `shape` describes? The fast pass only. */
export function conforms(shape: Shape, value: unknown, st: State): boolean {
  const kind = shape.kind;
  if (kind === LEAF) return leafConforms(shape, value, st);
  if (kind === OBJECT) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return propertiesConform(shape, value as Data, st);
    return shape.untyped || (value === null && shape.nullable);
  }
  if (kind === ARRAY) {
    if (Array.isArray(value)) return itemsConform(shape, value, st);
    return shape.untyped || (value === null && shape.nullable);
  }
  return shape.validate(value, st);
}

/** The types a child allows when it only tests a type, else 0. */
const typeMask = (child: Shape | null) =>
  child !== null && child.kind === LEAF && child.leaf.kind === TYPES ? child.leaf.mask : 0;

const leafConforms = (shape: Shape, value: unknown, st: State) =>
  leafPasses(shape.leaf, value) || shape.validate(value, st);

/**
 * An object's keys against an object shape: per key one slot lookup and the slot's check,
 * `required` a count, an unknown key against `additionalProperties: false` a return. A key
 * whose value is `undefined` counts as absent.
 */
export function propertiesConform(shape: Shape, object: Data, st: State): boolean {
  const { keys, byKey, children, counts, masks, additional } = shape;
  const count = keys.length;
  let seenRequired = 0;
  let position = 0;
  for (const key in object) {
    const value = object[key];
    // Arguments mostly come in the schema's order: try the key's position first.
    const guess = position++;
    if (value === undefined) continue;
    const index = guess < count && keys[guess] === key ? guess : slotOf(keys, byKey, key);
    if (index >= 0) {
      seenRequired += counts[index];
      const mask = masks[index];
      if (mask !== 0) {
        if ((typeBits(value) & mask) === 0) return false;
        continue;
      }
      const child = children[index];
      if (child !== null) {
        // A leaf inline: a call per property costs more than its test.
        if (child.kind === LEAF ? !leafConforms(child, value, st) : !conforms(child, value, st))
          return false;
        continue;
      }
    }
    if (additional === null) continue;
    if (shape.closed || !conforms(additional, value, st)) return false;
  }
  return seenRequired >= shape.requiredCount;
}

function itemsConform(shape: Shape, array: readonly unknown[], st: State): boolean {
  const length = array.length;
  if (length < shape.minItems || length > shape.maxItems) return false;
  const items = shape.items as Shape;
  if (items.kind === LEAF) {
    for (let i = 0; i < length; i++) if (!leafConforms(items, array[i], st)) return false;
  } else {
    for (let i = 0; i < length; i++) if (!conforms(items, array[i], st)) return false;
  }
  return true;
}
