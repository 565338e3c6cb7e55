/**
 * `validate/metaschemas/draft-2020-12`: the JSON Schema 2020-12 metaschema and its
 * vocabulary metaschemas, verbatim standard documents bundled so that a `$ref` to one
 * resolves without a registry — one file each: `schema.ts` (the dialect's metaschema)
 * and the vocabularies `core.ts`, `applicator.ts`, `unevaluated.ts`, `validation.ts`,
 * `meta-data.ts`, `format-annotation.ts`, `content.ts`.
 *
 * May import: nothing (plain data). `../index.ts` imports the room through this file.
 */
export { applicatorMeta } from './applicator.ts';
export { contentMeta } from './content.ts';
export { coreMeta } from './core.ts';
export { formatAnnotationMeta } from './format-annotation.ts';
export { metaDataMeta } from './meta-data.ts';
export { draft2020Schema } from './schema.ts';
export { unevaluatedMeta } from './unevaluated.ts';
export { validationMeta } from './validation.ts';
