/**
 * The standard metaschemas fino knows without a registry: draft-07 and 2020-12 with its
 * vocabulary metaschemas, by URI (no fragment). As in Ajv, a `$ref` to one of them resolves
 * offline; a document of the same URI in `options.registry` takes precedence.
 */
import { draft07Schema } from './draft-07.ts';
import { applicatorMeta } from './draft-2020-12/applicator.ts';
import { contentMeta } from './draft-2020-12/content.ts';
import { coreMeta } from './draft-2020-12/core.ts';
import { formatAnnotationMeta } from './draft-2020-12/format-annotation.ts';
import { metaDataMeta } from './draft-2020-12/meta-data.ts';
import { draft2020Schema } from './draft-2020-12/schema.ts';
import { unevaluatedMeta } from './draft-2020-12/unevaluated.ts';
import { validationMeta } from './draft-2020-12/validation.ts';

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
