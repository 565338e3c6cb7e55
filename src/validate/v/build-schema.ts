import type { JsonSchemaObject } from '../json-schema.ts';
import { type Emitter, emitChild, type RefinementMap, requireBuilder } from './brand.ts';

/** A builder's JSON Schema with the checks JSON Schema cannot express. */
export interface BuiltSchema {
  /** Plain JSON Schema, draft 2020-12. */
  schema: JsonSchemaObject;
  /** Refinement checks by the very node objects of `schema` that carry them. */
  refinements: RefinementMap;
}

/**
 * Emits a builder's JSON Schema together with its refinements, keyed by the nodes of that
 * schema they belong to. `compile` uses it to attach each check to its node.
 *
 * @example
 * ```ts
 * import { buildSchema, v } from 'fino:validate';
 *
 * const { schema, refinements } = buildSchema(
 *   v.object({ n: v.integer().refine((n) => n % 2 === 0) }),
 * );
 * refinements.has((schema.properties as any).n); // → true
 * ```
 */
export function buildSchema(builder: Emitter): BuiltSchema {
  requireBuilder('buildSchema', builder);
  const refinements: RefinementMap = new Map();
  return { schema: emitChild(builder, refinements), refinements };
}
