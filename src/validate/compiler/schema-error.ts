/**
 * Thrown by `compile` when a schema is invalid: a keyword of the wrong type, a `$ref`
 * that cannot be resolved, a pattern that is not a regular expression. The message
 * starts with the schema path, e.g. `#/properties/a/minLength: expected a non-negative
 * integer, received "x"`.
 *
 * @example
 * ```ts
 * import { SchemaError, compile } from 'fino:validate';
 *
 * try {
 *   compile({ type: 'string', minLength: 'x' });
 * } catch (error) {
 *   if (error instanceof SchemaError) console.log(error.schemaPath); // '#/minLength'
 * }
 * ```
 */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
  /** Where in the schema: a JSON Pointer fragment (`#/properties/a`), prefixed by the document's URI for a remote one. */
  readonly schemaPath: string;

  constructor(schemaPath: string, message: string) {
    super(`${schemaPath}: ${message}`);
    this.schemaPath = schemaPath;
  }
}
