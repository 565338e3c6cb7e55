/** The JSON Schema dialect a schema resource is read in. */
export interface Dialect {
  /** `7` for draft-07 (and the older drafts it reads), `2020` for draft 2020-12 (and 2019-09). */
  draft: 7 | 2020;
  /** False when the resource's metaschema leaves out the validation vocabulary. */
  validation: boolean;
}

export const DRAFT_2020: Dialect = { draft: 2020, validation: true };
export const DRAFT_7: Dialect = { draft: 7, validation: true };

const VALIDATION_VOCABULARY = 'https://json-schema.org/draft/2020-12/vocab/validation';

/**
 * The dialect named by a `$schema` URI. A known metaschema URI names its draft; any other
 * is looked up (a custom metaschema from the registry) for its `$vocabulary`.
 */
export function dialectOf(
  schemaUri: string,
  inherited: Dialect,
  lookup: (uri: string) => unknown,
): Dialect {
  if (/^https?:\/\/json-schema\.org\/draft-0[3-7]\/schema#?$/.test(schemaUri)) return DRAFT_7;
  if (/^https?:\/\/json-schema\.org\/draft\/20(19-09|20-12)\/schema#?$/.test(schemaUri))
    return DRAFT_2020;
  const metaschema = lookup(schemaUri);
  if (typeof metaschema !== 'object' || metaschema === null) return inherited;
  const meta = metaschema as Record<string, unknown>;
  const draft =
    typeof meta.$schema === 'string' && meta.$schema !== schemaUri
      ? dialectOf(meta.$schema, inherited, () => undefined).draft
      : inherited.draft;
  const vocabulary = meta.$vocabulary;
  const validation =
    typeof vocabulary === 'object' && vocabulary !== null
      ? Object.hasOwn(vocabulary, VALIDATION_VOCABULARY)
      : true;
  return { draft, validation };
}
