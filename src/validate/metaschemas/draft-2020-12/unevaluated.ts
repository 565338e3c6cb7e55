/**
 * The JSON Schema 2020-12 unevaluated vocabulary metaschema
 * (`https://json-schema.org/draft/2020-12/meta/unevaluated`), verbatim:
 * a standard document, bundled so that `$ref`s to it
 * resolve without a registry.
 */
export const unevaluatedMeta: Record<string, unknown> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://json-schema.org/draft/2020-12/meta/unevaluated',
  $vocabulary: {
    'https://json-schema.org/draft/2020-12/vocab/unevaluated': true,
  },
  $dynamicAnchor: 'meta',
  title: 'Unevaluated applicator vocabulary meta-schema',
  type: ['object', 'boolean'],
  properties: {
    unevaluatedItems: {
      $dynamicRef: '#meta',
    },
    unevaluatedProperties: {
      $dynamicRef: '#meta',
    },
  },
};
