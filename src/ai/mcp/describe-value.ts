/**
 * How error messages name a value a caller or a server sent ("received string "x"",
 * "received an array"), short whatever the value's size.
 */

/** A short description of `value` for an "expected …, received …" message. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return `string ${JSON.stringify(value.slice(0, 50))}`;
  if (typeof value === 'number') return `number ${value}`;
  return Array.isArray(value) ? 'an array' : typeof value;
}
