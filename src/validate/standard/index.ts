/**
 * `validate/standard`: Standard Schema v1 and Standard JSON Schema v1
 * (https://standardschema.dev), both ways — fino's builders expose `~standard`, and a
 * foreign schema (Zod, Valibot, ArkType…) is accepted wherever a schema is.
 *
 * The files: the interfaces (`types.ts`, declared here so that fino needs none of those
 * libraries); a builder's `~standard` (`builder-standard.ts`, with `to-draft-07.ts` for
 * the draft-07 target and `parse-path.ts` to read fino issue paths back); a foreign
 * schema (`is-standard-schema.ts` to recognize one, `json-schema-of.ts` for its JSON
 * Schema, `compile-standard.ts` for its validator).
 *
 * May import: `../compile.ts` (`builder-standard.ts` compiles a builder's schema), the
 * compiler through `../compiler/index.ts`, `../issues.ts`, the types of
 * `../json-schema.ts` and of `../v/` (through its `index.ts`); nothing else of
 * `validate`. `../v/builder.ts` imports the room through this file; `../schema-like.ts`
 * imports its files directly, because `builder-standard.ts` → `../compile.ts` →
 * `../schema-like.ts` would make going through this file a runtime cycle.
 */
export { builderStandardProps } from './builder-standard.ts';
export { compileStandard } from './compile-standard.ts';
export { isStandardSchema } from './is-standard-schema.ts';
export { jsonSchemaOf } from './json-schema-of.ts';
export type { StandardJSONSchemaV1, StandardSchemaV1 } from './types.ts';
