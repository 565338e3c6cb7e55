/**
 * `fino:validate`: JSON Schema validation whose messages a model can repair from.
 *
 * @module
 */

export * from './check-schema.ts';
export * from './compile.ts';
export * from './issues.ts';
export type * from './json-schema.ts';
export * from './schema-like.ts';
export * from './v.ts';
