/** A JSON Schema object (draft 2020-12 unless its `$schema` says otherwise). */
export type JsonSchemaObject = { [keyword: string]: unknown };
