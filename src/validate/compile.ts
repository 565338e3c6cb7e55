/**
 * `compile`, `parse`, `safeParse`: validation of any {@link SchemaLike} with issues a
 * model can repair from.
 */

import {
  CompileContext,
  compileDefaults,
  conforms,
  DepthExceeded,
  describeValue,
  newState,
  RefinementThrew,
  SchemaError,
  type SchemaNode,
  type Shape,
  type State,
  unreadableIssue,
} from './compiler/index.ts';
import { type Issue, ValidationError } from './issues.ts';
import type { JsonSchemaObject } from './json-schema.ts';
import { parseOrThrow } from './parse-or-throw.ts';
import {
  compileStandard,
  type InferSchema,
  isStandardSchema,
  type SchemaLike,
} from './schema-like.ts';
import { isBuilder, type RefinementMap } from './v/brand.ts';
import { buildSchema } from './v/build-schema.ts';

export { SchemaError } from './compiler/index.ts';

/** Options of {@link compile}, {@link parse} and {@link safeParse}. */
export interface CompileOptions {
  /**
   * Assert `format` (date-time, date, time, duration, email, hostname, ipv4, ipv6, uri,
   * uri-reference, uuid, json-pointer, relative-json-pointer, regex). Default false:
   * formats are annotations, as JSON Schema 2020-12 specifies.
   */
  formats?: boolean;
  /**
   * Schema documents by URI, for `$ref`s to other documents (`{ 'https://example.com/address.json': {...} }`).
   * Nothing is fetched over the network.
   */
  registry?: Record<string, unknown>;
  /** The dialect of a schema without `$schema` (default `'2020-12'`). */
  draft?: '2020-12' | 'draft-07';
  /**
   * How deeply schema references may nest while validating (default 500): each level of
   * recursive data through a `$ref` counts one. Deeper values get an issue, not a stack overflow.
   */
  maxDepth?: number;
}

/** The result of `safeParse`: the value, or the error with its issues. */
export type SafeParseResult<T> =
  | { success: true; value: T }
  | { success: false; error: ValidationError; issues: Issue[] };

/** A schema compiled once, validating many values. */
export interface CompiledValidator<T> {
  /** The JSON Schema this validator checks (a builder's or foreign schema's JSON Schema form). */
  readonly schema: JsonSchemaObject | boolean;
  /** Returns the value (with defaults applied) or throws a {@link ValidationError}. */
  parse(data: unknown): T;
  /**
   * Returns `{ success: true, value }` or `{ success: false, error, issues }`; never throws for
   * bad data, even hostile data: a value whose reading throws (a throwing getter, a revoked
   * Proxy) fails with a `read` issue at that path. Only what a refinement throws is rethrown
   * (and, for a foreign Standard Schema, whatever its library's `validate` throws).
   */
  safeParse(data: unknown): SafeParseResult<T>;
  /** Like `safeParse`; needed for a foreign Standard Schema that validates asynchronously. */
  safeParseAsync(data: unknown): Promise<SafeParseResult<T>>;
  /**
   * The verdict only: does `data` match the schema? Builds no issues and applies no defaults,
   * so it is the cheapest check (a type guard for `T`'s input). Never throws for bad data: a
   * value whose reading throws is not valid. Only what a refinement throws is rethrown.
   *
   * @example
   * ```ts
   * import { compile } from 'fino:validate';
   *
   * const validator = compile({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });
   * validator.is({ id: 'a1' }); // true
   * validator.is({ id: 1 }); // false
   * ```
   */
  is(data: unknown): data is T;
}

const DEFAULT_MAX_DEPTH = 500;

/**
 * Compiles a schema — a `v` builder, a raw JSON Schema (draft 2020-12, or draft-07 by
 * `$schema`) or a Standard Schema from another library — into a validator. Invalid
 * schemas fail here with a {@link SchemaError} naming the schema path.
 *
 * A successful result's `value` has the `default`s of missing properties applied. The
 * input is never mutated: objects and arrays on the path to an inserted default are
 * copies, everything else is the input's own data (structurally shared, not deep-copied;
 * `structuredClone` the value if you will mutate it and the input independently). See
 * docs/decisions/012. Whether a value is valid never depends on `default`s (they are
 * annotations); if the value with its defaults would fail the schema (a default against
 * `additionalProperties: false`, one that triggers a `dependentRequired`, one of the wrong
 * type), no default is applied and the input is returned as it is (docs/decisions/056).
 *
 * @example
 * ```ts
 * import { compile } from 'fino:validate';
 *
 * const validator = compile({
 *   type: 'object',
 *   properties: { city: { type: 'string' }, days: { type: 'integer', default: 3 } },
 *   required: ['city'],
 * });
 * validator.parse({ city: 'Lisbon' }); // { city: 'Lisbon', days: 3 }
 * validator.safeParse({ city: 7 }).success; // false
 * ```
 */
export function compile<S extends SchemaLike>(
  schema: S,
  options: CompileOptions = {},
): CompiledValidator<InferSchema<S>> {
  if (isBuilder(schema)) {
    const built = buildSchema(schema);
    return compileJsonSchema(built.schema, options, built.refinements) as CompiledValidator<
      InferSchema<S>
    >;
  }
  if (isStandardSchema(schema)) return compileStandard(schema) as CompiledValidator<InferSchema<S>>;
  if (
    typeof schema === 'boolean' ||
    (typeof schema === 'object' && schema !== null && !Array.isArray(schema))
  ) {
    return compileJsonSchema(schema as SchemaNode, options, undefined) as CompiledValidator<
      InferSchema<S>
    >;
  }
  throw new TypeError(
    `compile: expected a schema (a v builder, a JSON Schema object or boolean, or a Standard Schema), received ${describeValue(schema)}`,
  );
}

function compileJsonSchema(
  schema: SchemaNode,
  options: CompileOptions,
  refinements: RefinementMap | undefined,
): CompiledValidator<unknown> {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 1) {
    throw new TypeError(
      `compile: options.maxDepth: expected a positive integer, received ${describeValue(maxDepth)}`,
    );
  }
  if (options.draft !== undefined && options.draft !== '2020-12' && options.draft !== 'draft-07') {
    throw new TypeError(
      `compile: options.draft: expected "2020-12" or "draft-07", received ${describeValue(options.draft)}`,
    );
  }
  const ctx = new CompileContext({
    formats: options.formats === true,
    registry: options.registry ?? {},
    refinements,
    draft: options.draft === 'draft-07' ? 7 : 2020,
  });
  let shape: Shape;
  let applyDefaults: ((data: unknown) => unknown) | null;
  try {
    const info = ctx.addRoot(schema);
    shape = ctx.shapeOf(schema, ctx.validatorFor(schema, info));
    applyDefaults = compileDefaults(ctx, schema, info);
    ctx.compileDynamicTargets();
  } catch (error) {
    if (error instanceof RangeError)
      throw new SchemaError('#', 'the schema nests too deeply to compile');
    throw error;
  }
  const fast = newState(maxDepth, null);
  let busy = false;

  const isValid = (data: unknown): boolean => {
    if (busy) return run(shape, data, newState(maxDepth, null));
    busy = true;
    try {
      return run(shape, data, fast);
    } finally {
      busy = false;
    }
  };

  const safeParse = (data: unknown): SafeParseResult<unknown> => {
    if (!isValid(data)) {
      const issues: Issue[] = [];
      run(shape, data, newState(maxDepth, issues));
      if (issues.length === 0)
        issues.push({ path: '', message: 'value does not match the schema', keyword: 'schema' });
      return failure(issues);
    }
    if (applyDefaults === null) return { success: true, value: data };
    let value: unknown;
    try {
      value = applyDefaults(data);
    } catch (error) {
      return failure([unreadableIssue(data, [], error)]);
    }
    // Defaults are all or nothing: never a value that its own schema rejects (docs/decisions/056).
    return { success: true, value: value === data || isValid(value) ? value : data };
  };

  return {
    schema,
    safeParse,
    parse: parseOrThrow(safeParse),
    async safeParseAsync(data) {
      return safeParse(data);
    },
    is: isValid as (data: unknown) => data is unknown,
  };
}

/**
 * A failed result. Its `error` is created when first read: capturing an Error's stack
 * costs more than collecting the issues, and most callers only read `issues`. A class
 * with the getter on its prototype, not an object literal with its own getter: the
 * literal allocates a getter closure per result and takes V8's slow literal path.
 */
class Failure {
  readonly success = false;
  #error: ValidationError | undefined;

  constructor(readonly issues: Issue[]) {}

  get error(): ValidationError {
    this.#error ??= new ValidationError(this.issues);
    return this.#error;
  }
}

function failure(issues: Issue[]): SafeParseResult<never> {
  return new Failure(issues);
}

/**
 * Runs a validator, given the shape of its root (shape.ts). Exceeding `maxDepth` (or, as a backstop, the stack) becomes an
 * issue, and so does an exception thrown while reading the value (a hostile getter or
 * Proxy), at the path being read; what a refinement threw is rethrown. After any exception
 * the state is reset, since closures restore it only on return.
 */
function run(shape: Shape, data: unknown, st: State): boolean {
  const issues = st.issues;
  try {
    // The fast pass by the root's shape, saving a call through the root's closure.
    return issues === null ? conforms(shape, data, st) : shape.validate(data, st);
  } catch (error) {
    const at = [...st.path];
    st.issues = issues;
    st.depth = 0;
    st.path.length = 0;
    st.scope.length = 0;
    st.annot = null;
    if (isInstance(error, DepthExceeded)) {
      issues?.push({
        path: error.path,
        message: `value nests deeper than the maximum depth of ${st.maxDepth}`,
        keyword: 'depth',
      });
      return false;
    }
    if (isInstance(error, RefinementThrew)) throw error.thrown;
    if (!isStackOverflow(error)) {
      issues?.push(unreadableIssue(data, at, error));
      return false;
    }
    issues?.push({
      path: '',
      message: 'the value or the schema recurses too deeply to validate',
      keyword: 'depth',
    });
    return false;
  }
}

/** `instanceof` that a thrown Proxy (whose `getPrototypeOf` trap throws) cannot make throw. */
function isInstance<T>(value: unknown, type: abstract new (...args: never[]) => T): value is T {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

function isStackOverflow(error: unknown): boolean {
  try {
    return error instanceof RangeError && /call stack/i.test(error.message);
  } catch {
    return false;
  }
}

const cache = new WeakMap<object, Map<string, CompiledValidator<unknown>>>();

function cached<S extends SchemaLike>(
  schema: S,
  options: CompileOptions | undefined,
): CompiledValidator<InferSchema<S>> {
  if (typeof schema !== 'object' || schema === null || options?.registry !== undefined)
    return compile(schema, options);
  const key = `${options?.formats === true}:${options?.maxDepth ?? DEFAULT_MAX_DEPTH}:${options?.draft}`;
  let byOptions = cache.get(schema);
  if (byOptions === undefined) {
    byOptions = new Map();
    cache.set(schema, byOptions);
  }
  let validator = byOptions.get(key);
  if (validator === undefined) {
    validator = compile(schema, options);
    byOptions.set(key, validator);
  }
  return validator as CompiledValidator<InferSchema<S>>;
}

/**
 * Validates once: returns the value (defaults applied) or throws a {@link ValidationError}.
 * The compiled validator is cached per schema object (and per `formats`/`maxDepth`/`draft`; not
 * when a `registry` is given).
 *
 * @example
 * ```ts
 * import { parse } from 'fino:validate';
 *
 * parse({ type: 'array', items: { type: 'number' } }, [1, 2]); // [1, 2]
 * parse({ type: 'number' }, 'x'); // throws ValidationError: <root>: expected number, received string "x"
 * ```
 */
export function parse<S extends SchemaLike>(
  schema: S,
  data: unknown,
  options?: CompileOptions,
): InferSchema<S> {
  return cached(schema, options).parse(data);
}

/**
 * Validates once without throwing for bad data: `{ success: true, value }` or
 * `{ success: false, error, issues }`. Cached like {@link parse}.
 *
 * @example
 * ```ts
 * import { safeParse } from 'fino:validate';
 *
 * const result = safeParse({ type: 'object', required: ['id'] }, {});
 * if (!result.success) console.log(result.issues[0]);
 * // { path: 'id', message: 'missing required property "id"', keyword: 'required' }
 * ```
 */
export function safeParse<S extends SchemaLike>(
  schema: S,
  data: unknown,
  options?: CompileOptions,
): SafeParseResult<InferSchema<S>> {
  return cached(schema, options).safeParse(data);
}
