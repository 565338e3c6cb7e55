/**
 * `validate/metaschemas`: the standard metaschemas fino knows without a registry:
 * draft-07 and 2020-12 with its vocabulary metaschemas, by URI (no fragment). As in Ajv,
 * a `$ref` to one of them resolves offline; a document of the same URI in
 * `options.registry` takes precedence. The files: `draft-07.ts` (the draft-07
 * metaschema) and `draft-2020-12/` (the 2020-12 one and its vocabularies).
 *
 * May import: nothing outside the room (plain data); `draft-2020-12/` through its
 * `index.ts`. The compiler (`../compiler/context.ts`) and `../check-schema.ts` read
 * `METASCHEMAS` and the URIs from this file.
 */
import { draft07Schema } from './draft-07.ts';
import {
  applicatorMeta,
  contentMeta,
  coreMeta,
  draft2020Schema,
  formatAnnotationMeta,
  metaDataMeta,
  unevaluatedMeta,
  validationMeta,
} from './draft-2020-12/index.ts';

/** The draft-07 metaschema's URI, as `$schema` names it. */
export const DRAFT_07_URI = 'http://json-schema.org/draft-07/schema#';
/** The 2020-12 metaschema's URI, as `$schema` names it. */
export const DRAFT_2020_12_URI = 'https://json-schema.org/draft/2020-12/schema';

/** Every bundled metaschema by its URI without fragment. */
export const METASCHEMAS: ReadonlyMap<string, Record<string, unknown>> = new Map(
  [
    draft07Schema,
    draft2020Schema,
    coreMeta,
    applicatorMeta,
    unevaluatedMeta,
    validationMeta,
    metaDataMeta,
    formatAnnotationMeta,
    contentMeta,
  ].map((document) => [String(document.$id).replace(/#$/, ''), document]),
);
