/**
 * `checkSchema`: is a JSON Schema itself valid? Checked against its metaschema, then by
 * compiling it, without throwing.
 */

import { type CompiledValidator, type CompileOptions, compile, SchemaError } from './compile.ts';
import { describeValue, formatPath, pointerTokens } from './compiler/index.ts';
import type { Issue } from './issues.ts';
import { DRAFT_07_URI, DRAFT_2020_12_URI, METASCHEMAS } from './metaschemas/index.ts';

/** The verdict of {@link checkSchema}: valid, or the issues that make the schema invalid. */
export type SchemaCheck = { ok: true } | { ok: false; issues: Issue[] };

/** The bundled metaschemas' validators, compiled on first use. */
const bundled = new Map<string, CompiledValidator<unknown>>();

function metaschemaValidator(
  uri: string,
  registry: Record<string, unknown> | undefined,
): CompiledValidator<unknown> {
  if (registry !== undefined) return compile({ $ref: uri }, { registry, formats: true });
  let validator = bundled.get(uri);
  if (validator === undefined) {
    validator = compile({ $ref: uri }, { formats: true });
    bundled.set(uri, validator);
  }
  return validator;
}

/** The issue for a {@link SchemaError}: at the schema path when it is in the schema itself. */
function schemaErrorIssue(error: SchemaError): Issue {
  const at = error.schemaPath;
  const message = error.message.slice(at.length + 2);
  if (at.startsWith('#')) {
    return { path: formatPath(pointerTokens(at.slice(1))), message, keyword: 'schema' };
  }
  return { path: '', message: `${at}: ${message}`, keyword: 'schema' };
}

/**
 * Checks that a JSON Schema is itself valid — useful for schemas you did not write, such as
 * the input schemas of a remote MCP server's tools. First the schema is validated against
 * its metaschema (named by its `$schema`; without one, `options.draft`, default 2020-12; a
 * custom metaschema must be in `options.registry`), with `format` asserted (so a `pattern`
 * must be a regular expression). Then it is compiled, which also finds what a metaschema
 * cannot see, such as a `$ref` that resolves nowhere. Never throws for a bad schema: issue
 * paths point into the schema (`properties.age.minimum`).
 *
 * @example
 * ```ts
 * import { checkSchema } from 'fino:validate';
 *
 * const check = checkSchema({ type: 'object', properties: { age: { type: 'int' } } });
 * if (!check.ok) console.log(check.issues[0].path); // 'properties.age.type'
 * checkSchema({ type: 'string', minLength: 1 }); // { ok: true }
 * ```
 */
export function checkSchema(schema: unknown, options: CompileOptions = {}): SchemaCheck {
  if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null)) {
    return fail({
      path: '',
      message: `expected a JSON Schema (an object or a boolean), received ${describeValue(schema)}`,
      keyword: 'schema',
    });
  }
  const declared = declaredMetaschema(schema);
  const uri =
    typeof declared === 'string'
      ? declared
      : options.draft === 'draft-07'
        ? DRAFT_07_URI
        : DRAFT_2020_12_URI;
  const bare = uri.replace(/#$/, '');
  const registry = options.registry ?? {};
  const known =
    METASCHEMAS.has(bare) || Object.hasOwn(registry, bare) || Object.hasOwn(registry, `${bare}#`);
  if (!known) {
    return fail({
      path: '$schema',
      message: `unknown metaschema ${JSON.stringify(uri)}: expected draft-07 or 2020-12, or a metaschema in options.registry`,
      keyword: 'schema',
    });
  }
  const meta = metaschemaValidator(uri, options.registry).safeParse(schema);
  if (!meta.success) return fail(...meta.issues);
  try {
    compile(schema as object, options);
  } catch (error) {
    if (error instanceof SchemaError) return fail(schemaErrorIssue(error));
    throw error;
  }
  return { ok: true };
}

/** The schema's `$schema`, read so that a hostile schema (a throwing getter) cannot make it throw. */
function declaredMetaschema(schema: object | boolean): unknown {
  if (typeof schema === 'boolean') return undefined;
  try {
    return (schema as { $schema?: unknown }).$schema;
  } catch {
    return undefined;
  }
}

function fail(...issues: Issue[]): SchemaCheck {
  return { ok: false, issues };
}
