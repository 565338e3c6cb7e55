import type { JsonSchemaObject } from '../json-schema.ts';
import { Builder, requireFinite } from './builder.ts';

/**
 * A number (`{ type: 'number' }`) or, from `v.integer()`, an integer (`{ type: 'integer' }`).
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * v.integer().min(1).max(100).toJSON(); // → { type: 'integer', minimum: 1, maximum: 100 }
 * ```
 */
export class NumberBuilder extends Builder<number> {
  constructor(private readonly type: 'number' | 'integer') {
    super();
  }

  protected emitNode(): JsonSchemaObject {
    return { type: this.type };
  }

  /** At least `value`, inclusive (`minimum`). @example `v.number().min(0)` */
  min(value: number): this {
    return this.withKeyword({ minimum: requireFinite('min', value) });
  }

  /** At most `value`, inclusive (`maximum`). @example `v.number().max(1)` */
  max(value: number): this {
    return this.withKeyword({ maximum: requireFinite('max', value) });
  }
}
