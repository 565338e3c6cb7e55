import { compilePattern, PatternError, showValue } from '../compiler/index.ts';
import type { JsonSchemaObject } from '../json-schema.ts';
import { Builder, requireCount, requireString } from './builder.ts';

/** Formats fino knows how to assert (`compile(schema, { formats: true })`); others are annotations. */
export type KnownFormat =
  | 'date-time'
  | 'date'
  | 'time'
  | 'duration'
  | 'email'
  | 'hostname'
  | 'ipv4'
  | 'ipv6'
  | 'uri'
  | 'uri-reference'
  | 'uuid'
  | 'json-pointer'
  | 'relative-json-pointer'
  | 'regex';

/**
 * A string: `{ type: 'string' }`. Lengths count Unicode code points, as JSON Schema does.
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 *
 * v.string().min(1).max(80).toJSON(); // → { type: 'string', minLength: 1, maxLength: 80 }
 * ```
 */
export class StringBuilder extends Builder<string> {
  protected emitNode(): JsonSchemaObject {
    return { type: 'string' };
  }

  /** At least `length` characters (`minLength`). @example `v.string().min(1)` */
  min(length: number): this {
    return this.withKeyword({ minLength: requireCount('min', length) });
  }

  /** At most `length` characters (`maxLength`). @example `v.string().max(80)` */
  max(length: number): this {
    return this.withKeyword({ maxLength: requireCount('max', length) });
  }

  /** Exactly `length` characters (`minLength` and `maxLength`). @example `v.string().length(2)` */
  length(length: number): this {
    const exact = requireCount('length', length);
    return this.withKeyword({ minLength: exact, maxLength: exact });
  }

  /**
   * Matches a regular expression somewhere in the string (`pattern`, unanchored as in JSON
   * Schema). A `RegExp` is accepted without flags, or with `u`, since JSON Schema has none.
   * Backreferences and lookaround are refused here: patterns match in linear time.
   *
   * @example
   * ```ts
   * import { v } from 'fino:validate';
   *
   * v.string().pattern(/^[a-z]+$/).toJSON(); // → { type: 'string', pattern: '^[a-z]+$' }
   * ```
   */
  pattern(pattern: RegExp | string): this {
    const source = pattern instanceof RegExp ? regExpSource(pattern) : pattern;
    requireString('pattern', source);
    try {
      compilePattern(source);
    } catch (error) {
      if (!(error instanceof PatternError) || error.kind === 'invalid')
        throw new SyntaxError(`pattern: ${(error as Error).message}`);
      throw new SyntaxError(
        `pattern: ${showValue(source)} ${error.message}; fino matches patterns in linear time (see "Patterns" in docs/validate.md)`,
      );
    }
    return this.withKeyword({ pattern: source });
  }

  /**
   * Sets `format`: an annotation by default, asserted when compiled with `formats: true`.
   *
   * @example
   * ```ts
   * import { v } from 'fino:validate';
   *
   * v.string().format('email').toJSON(); // → { type: 'string', format: 'email' }
   * ```
   */
  format(format: KnownFormat | (string & {})): this {
    return this.withKeyword({ format: requireString('format', format) });
  }
}

const regExpSource = (pattern: RegExp): string => {
  const unsupported = pattern.flags.replace(/[u]/g, '');
  if (unsupported !== '') {
    throw new TypeError(
      `pattern: JSON Schema patterns have no flags; remove "${unsupported}" from /${pattern.source}/${pattern.flags}`,
    );
  }
  return pattern.source;
};
