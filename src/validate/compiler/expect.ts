import { describeValue, showValue } from './describe.ts';
import type { NodeInfo } from './node-info.ts';
import { compilePattern, PatternError, type SchemaPattern } from './regex.ts';
import { SchemaError } from './schema-error.ts';

/** Reads keyword values of a schema object, failing with the keyword's schema path when one has the wrong type. */
export class KeywordReader {
  constructor(
    readonly schema: Record<string, unknown>,
    readonly info: NodeInfo,
  ) {}

  has(keyword: string): boolean {
    return Object.hasOwn(this.schema, keyword) && this.schema[keyword] !== undefined;
  }

  fail(keyword: string, expected: string): never {
    const value = this.schema[keyword];
    throw new SchemaError(
      this.info.child(keyword).path,
      `expected ${expected}, received ${describeValue(value, { contents: true })}`,
    );
  }

  number(keyword: string): number | undefined {
    if (!this.has(keyword)) return undefined;
    const value = this.schema[keyword];
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(keyword, 'a number');
    return value;
  }

  positiveNumber(keyword: string): number | undefined {
    const value = this.number(keyword);
    if (value !== undefined && value <= 0) this.fail(keyword, 'a number greater than 0');
    return value;
  }

  count(keyword: string): number | undefined {
    if (!this.has(keyword)) return undefined;
    const value = this.schema[keyword];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
      this.fail(keyword, 'a non-negative integer');
    return value;
  }

  string(keyword: string): string | undefined {
    if (!this.has(keyword)) return undefined;
    const value = this.schema[keyword];
    if (typeof value !== 'string') this.fail(keyword, 'a string');
    return value;
  }

  boolean(keyword: string): boolean | undefined {
    if (!this.has(keyword)) return undefined;
    const value = this.schema[keyword];
    if (typeof value !== 'boolean') this.fail(keyword, 'a boolean');
    return value;
  }

  array(keyword: string): unknown[] | undefined {
    if (!this.has(keyword)) return undefined;
    const value = this.schema[keyword];
    if (!Array.isArray(value)) this.fail(keyword, 'an array');
    return value;
  }

  strings(keyword: string): string[] | undefined {
    const value = this.array(keyword);
    if (value !== undefined && !value.every((item) => typeof item === 'string'))
      this.fail(keyword, 'an array of strings');
    return value as string[] | undefined;
  }

  object(keyword: string): Record<string, unknown> | undefined {
    if (!this.has(keyword)) return undefined;
    const value = this.schema[keyword];
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.fail(keyword, 'an object');
    return value as Record<string, unknown>;
  }

  /**
   * Compiles a pattern (ECMAScript, Unicode mode first) for matching in linear time; fails
   * with the keyword's schema path when it is not a regular expression or needs
   * backtracking (backreferences, lookaround).
   */
  regex(source: string, keyword: string): SchemaPattern {
    try {
      return compilePattern(source);
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
      throw new SchemaError(
        this.info.child(keyword).path,
        error.kind === 'invalid'
          ? `expected a regular expression, received ${showValue(source)} (${error.message})`
          : `pattern ${showValue(source)} ${error.message}; fino matches patterns with a linear-time engine so that validation time stays linear in the input (see "Patterns" in docs/validate.md)`,
      );
    }
  }
}
