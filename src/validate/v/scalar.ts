import { describeValue } from '../../internal/describe-value.ts';
import type { JsonSchemaObject } from '../json-schema.ts';
import { Builder } from './builder.ts';

/** A JSON value that can be a `literal` or an `enum` member. */
export type Primitive = string | number | boolean | null;

const jsonType = (value: Primitive): string => (value === null ? 'null' : typeof value);

/** Throws unless `value` is a JSON primitive (finite numbers only). */
export function requirePrimitive(method: string, value: unknown): Primitive {
  const ok =
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value));
  if (!ok) {
    throw new TypeError(
      `${method}: expected a string, finite number, boolean or null, received ${describeValue(value)}`,
    );
  }
  return value as Primitive;
}

/**
 * Any value: `{}`. The type is `unknown`.
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * v.any().describe('Free-form metadata').toJSON(); // → { description: 'Free-form metadata' }
 * ```
 */
export class AnyValueBuilder extends Builder<unknown> {
  protected emitNode(): JsonSchemaObject {
    return {};
  }
}

/**
 * `true` or `false`: `{ type: 'boolean' }`.
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * v.boolean().toJSON(); // → { type: 'boolean' }
 * ```
 */
export class BooleanBuilder extends Builder<boolean> {
  protected emitNode(): JsonSchemaObject {
    return { type: 'boolean' };
  }
}

/**
 * `null`: `{ type: 'null' }`.
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * v.null().toJSON(); // → { type: 'null' }
 * ```
 */
export class NullBuilder extends Builder<null> {
  protected emitNode(): JsonSchemaObject {
    return { type: 'null' };
  }
}

/**
 * Exactly one value: `{ type, const }`.
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * v.literal('circle').toJSON(); // → { type: 'string', const: 'circle' }
 * ```
 */
export class LiteralBuilder<T extends Primitive> extends Builder<T> {
  constructor(readonly value: T) {
    super();
  }

  protected emitNode(): JsonSchemaObject {
    return { type: jsonType(this.value), const: this.value };
  }
}

/**
 * One of a list of values: `{ type, enum }` (`type` only when all values share one).
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * v.enum(['asc', 'desc']).toJSON(); // → { type: 'string', enum: ['asc', 'desc'] }
 * ```
 */
export class EnumBuilder<T extends Primitive> extends Builder<T> {
  readonly values: readonly T[];

  constructor(values: readonly T[]) {
    super();
    this.values = [...values];
  }

  protected emitNode(): JsonSchemaObject {
    const types = [...new Set(this.values.map(jsonType))];
    return types.length === 1
      ? { type: types[0], enum: [...this.values] }
      : { enum: [...this.values] };
  }
}
