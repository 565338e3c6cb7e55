/**
 * The JSON Schema 2020-12 format-annotation vocabulary metaschema
 * (`https://json-schema.org/draft/2020-12/meta/format-annotation`), verbatim:
 * a standard document, bundled so that `$ref`s to it
 * resolve without a registry.
 */
export const formatAnnotationMeta: Record<string, unknown> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://json-schema.org/draft/2020-12/meta/format-annotation',
  $vocabulary: {
    'https://json-schema.org/draft/2020-12/vocab/format-annotation': true,
  },
  $dynamicAnchor: 'meta',
  title: 'Format vocabulary meta-schema for annotation results',
  type: ['object', 'boolean'],
  properties: {
    format: {
      type: 'string',
    },
  },
};
