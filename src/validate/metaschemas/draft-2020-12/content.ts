/**
 * The JSON Schema 2020-12 content vocabulary metaschema
 * (`https://json-schema.org/draft/2020-12/meta/content`), verbatim:
 * a standard document, bundled so that `$ref`s to it
 * resolve without a registry.
 */
export const contentMeta: Record<string, unknown> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://json-schema.org/draft/2020-12/meta/content',
  $vocabulary: {
    'https://json-schema.org/draft/2020-12/vocab/content': true,
  },
  $dynamicAnchor: 'meta',
  title: 'Content vocabulary meta-schema',
  type: ['object', 'boolean'],
  properties: {
    contentEncoding: {
      type: 'string',
    },
    contentMediaType: {
      type: 'string',
    },
    contentSchema: {
      $dynamicRef: '#meta',
    },
  },
};
