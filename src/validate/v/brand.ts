import type { JsonSchemaObject } from '../json-schema.ts';

/** A check attached to a schema node: returns an error message, or undefined when the value passes. */
export type RefinementCheck = (value: unknown) => string | undefined;

/** Where an emitted builder records the schema nodes that carry refinements. */
export type RefinementMap = Map<object, RefinementCheck[]>;

/**
 * The brand of fino builders. A builder's property under this symbol is the function that
 * emits its JSON Schema; using `Symbol.for` lets two copies of fino recognize each other's builders.
 */
export const FINO_SCHEMA: unique symbol = Symbol.for('fino.schema') as never;

/** What a value under {@link FINO_SCHEMA} must be. */
export type EmitSchema = (refinements: RefinementMap) => JsonSchemaObject;

/** The emitting side of a builder, as other files see it. */
export interface Emitter {
  readonly [FINO_SCHEMA]: EmitSchema;
}

/**
 * Tells whether a value is a fino `v` builder.
 *
 * @example
 * ```ts
 * import { isBuilder, v } from 'fino:validate';
 *
 * isBuilder(v.string()); // → true
 * isBuilder({ type: 'string' }); // → false
 * ```
 */
export function isBuilder(value: unknown): value is Emitter {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<Emitter>)[FINO_SCHEMA] === 'function'
  );
}

/** Throws unless `value` is a builder; `what` names the argument in the message. */
export function requireBuilder(what: string, value: unknown): void {
  if (!isBuilder(value)) {
    const received = value === null ? 'null' : typeof value;
    throw new TypeError(`${what}: expected a v builder (such as v.string()), received ${received}`);
  }
}

/** Emits a child builder's schema into the same refinement map. */
export const emitChild = (child: Emitter, refinements: RefinementMap): JsonSchemaObject =>
  child[FINO_SCHEMA](refinements);
