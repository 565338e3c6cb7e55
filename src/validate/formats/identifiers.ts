const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** RFC 4122 UUID, any version: `2eb8aa08-aa98-11ea-b4aa-73b441d16380`. */
export const isUuid = (value: string): boolean => UUID.test(value);

/** An ECMAScript regular expression (Unicode mode), as JSON Schema's `regex` format means. */
export function isRegex(value: string): boolean {
  try {
    new RegExp(value, 'u');
    return true;
  } catch {
    return false;
  }
}
