import { showValue, typeName } from './describe.ts';
import type { NodeInfo } from './node-info.ts';
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
      `expected ${expected}, received ${describe(value)}`,
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

  /** Compiles a regular expression as the ECMAScript dialect JSON Schema names (Unicode mode first). */
  regex(source: string, keyword: string): RegExp {
    const regex = toRegExp(source);
    if (regex === undefined)
      throw new SchemaError(
        this.info.child(keyword).path,
        `expected a regular expression, received ${showValue(source)}`,
      );
    return regex;
  }
}

/** A JSON Schema `pattern` as a RegExp: Unicode mode, or legacy mode for patterns only it accepts. */
export function toRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    try {
      return new RegExp(source);
    } catch {
      return undefined;
    }
  }
}

function describe(value: unknown): string {
  const type = typeName(value);
  return type === 'object' || type === 'array' ? `${type} ${showValue(value)}` : showValue(value);
}
