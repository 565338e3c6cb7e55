/**
 * The JSON Schema 2020-12 meta-data vocabulary metaschema
 * (`https://json-schema.org/draft/2020-12/meta/meta-data`), verbatim:
 * a standard document, bundled so that `$ref`s to it
 * resolve without a registry.
 */
export const metaDataMeta: Record<string, unknown> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://json-schema.org/draft/2020-12/meta/meta-data',
  $vocabulary: {
    'https://json-schema.org/draft/2020-12/vocab/meta-data': true,
  },
  $dynamicAnchor: 'meta',
  title: 'Meta-data vocabulary meta-schema',
  type: ['object', 'boolean'],
  properties: {
    title: {
      type: 'string',
    },
    description: {
      type: 'string',
    },
    default: true,
    deprecated: {
      type: 'boolean',
      default: false,
    },
    readOnly: {
      type: 'boolean',
      default: false,
    },
    writeOnly: {
      type: 'boolean',
      default: false,
    },
    examples: {
      type: 'array',
      items: true,
    },
  },
};
