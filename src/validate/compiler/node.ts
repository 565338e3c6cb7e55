import type { CompileContext, NodeInfo, SchemaNode } from './context.ts';
import { describeValue, showValue, typeName } from './describe.ts';
import { KeywordReader } from './expect.ts';
import { compileArrays } from './keywords/arrays.ts';
import { declaredTypes } from './keywords/closest-branch.ts';
import { compileCombinators } from './keywords/combinators.ts';
import { typed } from './keywords/inline-type-checks.ts';
import { quickAccept } from './keywords/leaf-fast-path.ts';
import { compileNumbers } from './keywords/numbers.ts';
import { compileObjects } from './keywords/objects.ts';
import { compileProperties } from './keywords/properties.ts';
import { compileRefs } from './keywords/refs.ts';
import type { Checks, NodeScope } from './keywords/scope.ts';
import { compileStrings } from './keywords/strings.ts';
import { compileType, type JsonType, readTypes } from './keywords/type.ts';
import { withUnevaluated } from './keywords/unevaluated.ts';
import { compileValues } from './keywords/values.ts';
import { SchemaError } from './schema-error.ts';
import { allOf, alwaysValid, RefinementThrew, report, type Validate } from './state.ts';

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
  const checks: Checks = { any: [], string: [], number: [], object: [], array: [] };
  const refOnly = info.dialect.draft === 7 && read.has('$ref');
  const types = refOnly || !info.dialect.validation ? undefined : readTypes(scope);
  if (!refOnly) {
    if (info.dialect.validation) {
      compileValues(scope, checks);
      compileNumbers(scope, checks);
      compileStrings(scope, checks);
    }
    compileArrays(scope, checks);
    compileProperties(scope, checks);
    compileObjects(scope, checks);
    compileCombinators(scope, checks);
  }
  compileRefs(scope, checks);
  let validate = assemble(types, checks);
  const refinements = ctx.options.refinements?.get(node);
  if (!refOnly && info.dialect.validation && refinements === undefined) {
    validate = quickAccept(node, types, ctx.options.formats, validate) ?? validate;
  }
  if (!refOnly) validate = withUnevaluated(scope, validate);
  validate = withRefinements(refinements, validate);
  if (isDynamicScopeRoot(ctx, node, info)) validate = enteringScope(info.resource, validate);
  if (types !== undefined) declaredTypes.set(validate, types);
  return validate;
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

function enteringScope(resource: string, validate: Validate): Validate {
  return (data, st) => {
    st.scope.push(resource);
    const ok = validate(data, st);
    st.scope.pop();
    return ok;
  };
}
