import { describeValue } from '../../internal/describe-value.ts';
import type { JsonSchemaObject } from '../json-schema.ts';
import {
  builderStandardProps,
  type StandardJSONSchemaV1,
  type StandardSchemaV1,
} from '../standard/index.ts';
import {
  type EmitSchema,
  type Emitter,
  FINO_SCHEMA,
  type RefinementCheck,
  type RefinementMap,
} from './brand.ts';
import { makeNullable } from './nullable.ts';

/**
 * How a builder behaves as an object property: `required` must be present, `optional` may be
 * absent (and stays absent), `defaulted` may be absent and is filled with the default.
 */
export type Optionality = 'required' | 'optional' | 'defaulted';

/** The state every builder carries besides its own children. */
interface Modifiers {
  readonly keywords: Readonly<JsonSchemaObject>;
  readonly annotations: Readonly<JsonSchemaObject>;
  readonly optionality: Optionality;
  readonly nullable: boolean;
  readonly refinements: readonly RefinementCheck[];
}

const initialModifiers: Modifiers = {
  keywords: {},
  annotations: {},
  optionality: 'required',
  nullable: false,
  refinements: [],
};

/** Any builder, whatever its types. */
export type AnyBuilder = Builder<any, any, Optionality>;

/** The props of a builder's `~standard`: Standard Schema and Standard JSON Schema both. */
export type BuilderStandardProps<In, Out> = StandardSchemaV1.Props<In, Out> &
  StandardJSONSchemaV1.Props<In, Out>;

/**
 * The base of every `v` builder: an immutable description of a JSON Schema with a static
 * type. Every chain method returns a new builder; the original is never changed.
 *
 * `Out` is the type of a valid, parsed value (defaults applied), `In` the type a caller may
 * pass, and `Opt` how the builder behaves as an object property.
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * const name = v.string().min(1).describe('Display name');
 * JSON.stringify(name); // → '{"type":"string","minLength":1,"description":"Display name"}'
 * ```
 */
export abstract class Builder<Out = unknown, In = Out, Opt extends Optionality = 'required'>
  implements Emitter, StandardSchemaV1<In, Out>
{
  /** Phantom types for inference; never set at run time. */
  declare readonly '~types': { readonly output: Out; readonly input: In; readonly opt: Opt };

  /** @internal */
  protected readonly modifiers: Modifiers = initialModifiers;

  /** Emits the node for this builder's own type, without modifiers; a fresh object each call. */
  protected abstract emitNode(refinements: RefinementMap): JsonSchemaObject;

  /**
   * How this builder behaves as an object property: `'optional'` after `.optional()`,
   * `'defaulted'` after `.default()`, else `'required'`.
   *
   * @example
   * ```ts
   * import { v } from 'fino:validate';
   *
   * v.string().optional().optionality; // → 'optional'
   * ```
   */
  get optionality(): Opt {
    return this.modifiers.optionality as Opt;
  }

  /** Returns a copy of this builder with some state replaced. */
  protected with(patch: Record<string, unknown>): this {
    const next = Object.create(Object.getPrototypeOf(this)) as this;
    Object.assign(next, this, patch);
    return next;
  }

  /** Returns a copy with a keyword added (or replaced) in the emitted node. */
  protected withKeyword(keywords: JsonSchemaObject): this {
    return this.withModifiers({ keywords: { ...this.modifiers.keywords, ...keywords } });
  }

  private withModifiers(patch: Partial<Modifiers>): this {
    return this.with({ modifiers: { ...this.modifiers, ...patch } });
  }

  private withAnnotation(keyword: string, value: unknown): this {
    return this.withModifiers({ annotations: { ...this.modifiers.annotations, [keyword]: value } });
  }

  /**
   * Sets the `description`: what a model reads to fill the value in.
   *
   * @example
   * ```ts
   * import { v } from 'fino:validate';
   *
   * v.string().describe('Workspace-relative path').toJSON();
   * // → { type: 'string', description: 'Workspace-relative path' }
   * ```
   */
  describe(description: string): this {
    return this.withAnnotation('description', requireString('describe', description));
  }

  /**
   * Sets the `title`.
   *
   * @example
   * ```ts
   * import { v } from 'fino:validate';
   *
   * v.number().title('Amount').toJSON(); // → { type: 'number', title: 'Amount' }
   * ```
   */
  title(title: string): this {
    return this.withAnnotation('title', requireString('title', title));
  }

  /**
   * Sets `examples`: sample values shown to a model.
   *
   * @example
   * ```ts
   * import { v } from 'fino:validate';
   *
   * v.string().examples('Lisbon', 'Porto').toJSON();
   * // → { type: 'string', examples: ['Lisbon', 'Porto'] }
   * ```
   */
  examples(...examples: Exclude<In, undefined>[]): this {
    return this.withAnnotation('examples', examples);
  }

  /**
   * Lets the value be absent when it is an object property: the key leaves `required`, and
   * the parsed value has no such key when the input had none.
   *
   * @example
   * ```ts
   * import { v } from 'fino:validate';
   *
   * const args = v.object({ a: v.string(), b: v.number().optional() });
   * args.toJSON().required; // → ['a']
   * ```
   */
  optional(): Builder<Out | undefined, In | undefined, 'optional'> {
    return this.withModifiers({ optionality: 'optional' }) as never;
  }

  /**
   * Also accepts `null` (`type: ['string', 'null']`, or `anyOf` with `{ type: 'null' }` for
   * schemas without a single type).
   *
   * @example
   * ```ts
   * import { v } from 'fino:validate';
   *
   * v.string().nullable().toJSON(); // → { type: ['string', 'null'] }
   * ```
   */
  nullable(): Builder<Out | null, In | null, Opt> {
    return this.withModifiers({ nullable: true });
  }

  /**
   * Fills the value in when an object property is absent; the key leaves `required`, and the
   * schema gets a `default` annotation. The value must be JSON (it is part of the schema).
   *
   * @example
   * ```ts
   * import { parse, v } from 'fino:validate';
   *
   * parse(v.object({ limit: v.integer().default(10) }), {}); // → { limit: 10 }
   * ```
   */
  default(
    value: Exclude<In, undefined>,
  ): Builder<Exclude<Out, undefined>, In | undefined, 'defaulted'> {
    return this.withModifiers({
      optionality: 'defaulted',
      annotations: { ...this.modifiers.annotations, default: copyDefault(value) },
    }) as never;
  }

  /**
   * Adds a check that JSON Schema cannot express. It runs after the schema's own keywords
   * passed (never on `null` or an absent value) and reports `message` when it returns false.
   *
   * @example
   * ```ts
   * import { safeParse, v } from 'fino:validate';
   *
   * const even = v.integer().refine((n) => n % 2 === 0, 'expected an even number');
   * safeParse(even, 3).success; // → false
   * ```
   */
  refine(
    check: (value: Exclude<Out, null | undefined>) => boolean,
    message = 'did not pass the refinement check',
  ): this {
    if (typeof check !== 'function') {
      throw new TypeError(`refine: expected a function, received ${describeValue(check)}`);
    }
    const refinement: RefinementCheck = (value) => (check(value as never) ? undefined : message);
    return this.withModifiers({ refinements: [...this.modifiers.refinements, refinement] });
  }

  /**
   * The plain JSON Schema (draft 2020-12, without `$schema`); `JSON.stringify(builder)` uses it.
   *
   * @example
   * ```ts
   * import { v } from 'fino:validate';
   *
   * v.object({ city: v.string() }).toJSON();
   * // → { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }
   * ```
   */
  toJSON(): JsonSchemaObject {
    return this[FINO_SCHEMA](new Map());
  }

  /** Emits this builder's schema, recording the nodes that carry refinements. @internal */
  get [FINO_SCHEMA](): EmitSchema {
    return (refinements) => this.emit(refinements);
  }

  /**
   * Standard Schema v1 (and Standard JSON Schema v1): lets libraries that accept Zod-like
   * schemas validate with this builder and read its JSON Schema.
   *
   * @example
   * ```ts
   * import { v } from 'fino:validate';
   *
   * const result = await v.string()['~standard'].validate(42);
   * result.issues?.[0].message; // → 'expected string, received number 42'
   * ```
   */
  get '~standard'(): BuilderStandardProps<In, Out> {
    return builderStandardProps<In, Out>(this);
  }

  private emit(refinements: RefinementMap): JsonSchemaObject {
    const { keywords, annotations, nullable, refinements: checks } = this.modifiers;
    const own = Object.assign(this.emitNode(refinements), keywords);
    const { outer, inner } = nullable ? makeNullable(own) : { outer: own, inner: own };
    if (checks.length > 0) {
      const list = nullable ? checks.map(skipNull) : [...checks];
      refinements.set(inner, [...(refinements.get(inner) ?? []), ...list]);
    }
    return Object.assign(outer, structuredClone(annotations));
  }
}

/** A copy of a default value, so later changes to the caller's object do not reach the schema. */
function copyDefault(value: unknown): unknown {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') {
    throw new TypeError(`default: expected a JSON value, received ${describeValue(value)}`);
  }
  try {
    return structuredClone(value);
  } catch {
    throw new TypeError('default: expected a JSON value, received an object that cannot be copied');
  }
}

const skipNull =
  (check: RefinementCheck): RefinementCheck =>
  (value) =>
    value === null ? undefined : check(value);

/** Throws unless `value` is a string; returns it. */
export function requireString(method: string, value: unknown): string {
  if (typeof value !== 'string') {
    throw new TypeError(`${method}: expected a string, received ${describeValue(value)}`);
  }
  return value;
}

/** Throws unless `value` is a non-negative integer; returns it. */
export function requireCount(method: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(
      `${method}: expected a non-negative integer, received ${describeValue(value)}`,
    );
  }
  return value;
}

/** Throws unless `value` is a finite number; returns it. */
export function requireFinite(method: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RangeError(`${method}: expected a finite number, received ${describeValue(value)}`);
  }
  return value;
}
