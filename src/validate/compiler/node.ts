import type { CompileContext, NodeInfo, SchemaNode } from './context.ts';
import { describeValue, showValue, typeName } from './describe.ts';
import { KeywordReader } from './expect.ts';
import {
  type Checks,
  compileArrays,
  compileCombinators,
  compileNumbers,
  compileObjects,
  compileProperties,
  compileRefs,
  compileStrings,
  compileType,
  compileValues,
  describeLeaf,
  isAnnotation,
  isTypeOnlyNode,
  type JsonType,
  type Leaf,
  leafFirst,
  type NodeScope,
  readTypes,
  typed,
  typeOnlyLeaf,
  withUnevaluated,
} from './keywords/index.ts';
import type { SchemaPattern } from './regex.ts';
import { SchemaError } from './schema-error.ts';
import { ARRAY, arrayShape, conforms, leafShape, OBJECT, type Shape, typedShape } from './shape.ts';
import { allOf, alwaysValid, entering, RefinementThrew, report, type Validate } from './state.ts';

const falseSchema: Validate = (data, st) =>
  st.issues !== null &&
  report(st, 'false', `no value is allowed here, received ${describeValue(data)}`, data);

const combine = (checks: Validate[]): Validate | null =>
  checks.length === 0 ? null : allOf(checks);

/** Runs the checks for the value's JSON type, then the checks for every value. */
function dispatch(checks: Checks): Validate | null {
  const string = combine(checks.string);
  const number = combine(checks.number);
  const object = combine(checks.object);
  const array = combine(checks.array);
  const any = combine(checks.any);
  if (string === null && number === null && object === null && array === null) return any;
  if (any === null && string === null && number === null && array === null) {
    const objects = object as Validate;
    return (data, st) =>
      typeof data === 'object' && data !== null && !Array.isArray(data) ? objects(data, st) : true;
  }
  return (data, st) => {
    let specific: Validate | null = null;
    if (typeof data === 'string') specific = string;
    else if (typeof data === 'number') specific = number;
    else if (typeof data === 'object' && data !== null)
      specific = Array.isArray(data) ? array : object;
    let ok = true;
    if (specific !== null && !specific(data, st)) {
      if (st.issues === null) return false;
      ok = false;
    }
    if (any !== null && !any(data, st)) ok = false;
    return ok;
  };
}

/** Compiles one schema object (or boolean) into its closure. */
export function compileNode(ctx: CompileContext, node: SchemaNode, info: NodeInfo): Validate {
  if (node === true) return alwaysValid;
  if (node === false) return falseSchema;
  const read = new KeywordReader(node, info);
  const scope: NodeScope = {
    ctx,
    read,
    info,
    sub(value, suffix) {
      if (
        typeof value !== 'boolean' &&
        (typeof value !== 'object' || value === null || Array.isArray(value))
      ) {
        throw new SchemaError(
          info.child(suffix).path,
          `expected a schema (object or boolean), received ${typeName(value)} ${showValue(value)}`,
        );
      }
      const at = typeof value === 'object' ? ctx.infoOf(value) : undefined;
      return ctx.validatorFor(value as SchemaNode, at ?? info.child(suffix));
    },
  };
  const refOnly = info.dialect.draft === 7 && read.has('$ref');
  const types = refOnly || !info.dialect.validation ? undefined : readTypes(scope);
  const refinements = ctx.options.refinements?.get(node);
  if (
    info.dialect.validation &&
    refinements === undefined &&
    isTypeOnlyNode(node, ctx.options.formats) &&
    !isDynamicScopeRoot(ctx, node, info)
  ) {
    const shape = typeOnlyShape(types);
    ctx.describe(node, shape, types);
    return shape.validate;
  }
  const checks: Checks = { any: [], string: [], number: [], object: [], array: [] };
  let pattern: SchemaPattern | undefined;
  let properties: Shape | undefined;
  if (!refOnly) {
    if (info.dialect.validation) {
      compileValues(scope, checks);
      compileNumbers(scope, checks);
      pattern = compileStrings(scope, checks);
    }
    compileArrays(scope, checks);
    properties = compileProperties(scope, checks);
    compileObjects(scope, checks);
    compileCombinators(scope, checks);
  }
  compileRefs(scope, checks);
  let validate = assemble(types, checks);
  let leaf: Leaf | undefined;
  if (!refOnly && info.dialect.validation && refinements === undefined) {
    leaf = describeLeaf(node, types, ctx.options.formats, pattern);
    if (leaf !== undefined) validate = leafFirst(leaf, validate);
  }
  const plain = validate;
  if (!refOnly) validate = withUnevaluated(scope, validate);
  validate = withRefinements(refinements, validate);
  if (isDynamicScopeRoot(ctx, node, info)) validate = entering(info.resource, validate);
  let shape: Shape | null = null;
  if (validate === plain) {
    if (leaf !== undefined) shape = leafShape(leaf, validate);
    else if (info.dialect.validation) shape = shapeOfNode(scope, types, properties, validate);
    if (shape?.kind === OBJECT || shape?.kind === ARRAY) validate = shapeFirst(shape, validate);
  }
  ctx.describe(node, shape, types);
  return validate;
}

const typeOnlyShapes = new Map<string, Shape>();

/**
 * The shape of a node of `type` and annotations only, with its closure, shared by every
 * such node with the same `type` in every schema: they check and report alike, and tool
 * schemas are mostly made of them (`{ type: 'string', description: … }`), so sharing
 * saves compiling them and a few closures and objects per property.
 */
function typeOnlyShape(types: readonly JsonType[] | undefined): Shape {
  const key = types === undefined ? '' : types.join();
  let shape = typeOnlyShapes.get(key);
  if (shape === undefined) {
    const validate = types === undefined ? alwaysValid : assemble(types, NO_CHECKS);
    shape = leafShape(typeOnlyLeaf(types), validate);
    typeOnlyShapes.set(key, shape);
  }
  return shape;
}

const NO_CHECKS: Checks = Object.freeze({
  any: [],
  string: [],
  number: [],
  object: [],
  array: [],
}) as Checks;

const OBJECT_KEYWORDS = new Set(['properties', 'required', 'additionalProperties']);
const ARRAY_KEYWORDS = new Set(['items', 'minItems', 'maxItems']);

/**
 * The shape of a node of only `properties`, `required` and `additionalProperties`
 * (`properties`: their shape), or of only one `items` schema and length bounds, each with
 * a `type` of its own type (and perhaps `null`) or none, and annotations; null for any
 * other node.
 */
function shapeOfNode(
  scope: NodeScope,
  types: readonly JsonType[] | undefined,
  properties: Shape | undefined,
  full: Validate,
): Shape | null {
  const { read, ctx } = scope;
  const keys = Object.keys(read.schema);
  const only = (allowed: ReadonlySet<string>) =>
    keys.every((key) => allowed.has(key) || isAnnotation(key, ctx.options.formats));
  const typedAs = (type: JsonType) =>
    types === undefined ||
    (types.includes(type) && types.every((other) => other === type || other === 'null'));
  const nullable = types?.includes('null') === true;
  const items = read.schema.items;
  if (properties !== undefined && typedAs('object') && only(OBJECT_KEYWORDS))
    return typedShape(properties, full, nullable, types === undefined);
  if (read.has('items') && !Array.isArray(items) && typedAs('array') && only(ARRAY_KEYWORDS)) {
    return arrayShape(
      full,
      nullable,
      types === undefined,
      ctx.shapeOf(items, scope.sub(items, 'items')),
      read.count('minItems') ?? 0,
      read.count('maxItems') ?? Number.POSITIVE_INFINITY,
    );
  }
  return null;
}

/**
 * The fast pass by `shape`, the collecting pass by `full`. Made here, not in the function
 * that compiles the node: a closure keeps the whole context of the function it is made in,
 * which there holds the compilation (`ctx`).
 */
function shapeFirst(shape: Shape, full: Validate): Validate {
  return (data, st) =>
    st.issues === null && st.annot === null ? conforms(shape, data, st) : full(data, st);
}

const CATEGORY: Record<JsonType, keyof Checks | null> = {
  string: 'string',
  number: 'number',
  integer: 'number',
  object: 'object',
  array: 'array',
  boolean: null,
  null: null,
};

/** The node's closure: its type test, then the checks for that type and for every value. */
function assemble(types: readonly JsonType[] | undefined, checks: Checks): Validate {
  if (types === undefined) return dispatch(checks) ?? alwaysValid;
  const { test, check } = compileType(types);
  if (types.length === 1) {
    const category = CATEGORY[types[0]];
    return typed(
      types[0],
      combine([...(category === null ? [] : checks[category]), ...checks.any]),
      check,
    );
  }
  const rest = dispatch(checks);
  if (rest === null) return check;
  return (data, st) => (test(data) ? rest(data, st) : check(data, st));
}

function withRefinements(
  refinements: ReadonlyArray<(value: unknown) => string | undefined> | undefined,
  inner: Validate,
): Validate {
  if (refinements === undefined || refinements.length === 0) return inner;
  return (data, st) => {
    if (!inner(data, st)) return false;
    let ok = true;
    for (const refine of refinements) {
      let message: string | undefined;
      try {
        message = refine(data);
      } catch (error) {
        throw new RefinementThrew(error);
      }
      if (message === undefined) continue;
      if (st.issues === null) return false;
      report(st, 'refine', message, data);
      ok = false;
    }
    return ok;
  };
}

function isDynamicScopeRoot(
  ctx: CompileContext,
  node: { [keyword: string]: unknown },
  info: NodeInfo,
): boolean {
  return (
    info.dialect.draft === 2020 &&
    ctx.hasDynamicAnchors(info.resource) &&
    (typeof node.$id === 'string' || info.isRoot)
  );
}
