import type { CompiledValidator, SafeParseResult } from '../compile.ts';
import { formatPath } from '../compiler/index.ts';
import { type Issue, ValidationError } from '../issues.ts';
import type { JsonSchemaObject } from '../json-schema.ts';
import { parseOrThrow } from '../parse-or-throw.ts';
import { jsonSchemaOf } from './json-schema-of.ts';
import type { StandardSchemaV1 } from './types.ts';

/**
 * A validator for a foreign Standard Schema (Zod, Valibot, ArkType…): validation runs the
 * schema's own `~standard.validate`, and its issues become fino issues (path in fino syntax,
 * keyword = the library's issue `code` when it has one, else `'standard'`). `schema` is the
 * schema's JSON Schema form, computed on first access; it throws there, saying how to supply
 * one, when the library offers none — validation works either way.
 * When the library validates asynchronously, `parse`/`safeParse` throw a TypeError telling to
 * use `safeParseAsync`.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { compileStandard } from 'fino:validate';
 *
 * const validator = compileStandard(z.object({ a: z.string() }));
 * validator.safeParse({ a: 1 }).success; // → false
 * ```
 */
export function compileStandard<T>(schema: StandardSchemaV1<unknown, T>): CompiledValidator<T> {
  const validate = schema['~standard'].validate;
  let jsonSchema: JsonSchemaObject | undefined;

  const safeParse = (data: unknown): SafeParseResult<T> => {
    const result = validate(data);
    if (result instanceof Promise) {
      throw new TypeError(
        `this ${schema['~standard'].vendor} schema validates asynchronously; use safeParseAsync`,
      );
    }
    return toSafeParseResult(result);
  };

  return {
    get schema() {
      jsonSchema ??= jsonSchemaOf(schema);
      return jsonSchema;
    },
    safeParse,
    parse: parseOrThrow(safeParse),
    async safeParseAsync(data) {
      return toSafeParseResult(await validate(data));
    },
    is: (data: unknown): data is T => safeParse(data).success,
  };
}

function toSafeParseResult<T>(result: StandardSchemaV1.Result<T>): SafeParseResult<T> {
  if (result.issues === undefined) return { success: true, value: result.value };
  const issues = result.issues.map(toIssue);
  return { success: false, error: new ValidationError(issues), issues };
}

function toIssue(issue: StandardSchemaV1.Issue): Issue {
  const code = (issue as { code?: unknown }).code;
  return {
    path: formatPath((issue.path ?? []).map(toSegment)),
    message: String(issue.message),
    keyword: typeof code === 'string' ? code : 'standard',
  };
}

function toSegment(segment: PropertyKey | StandardSchemaV1.PathSegment): string | number {
  const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
  return typeof key === 'number' ? key : String(key);
}
