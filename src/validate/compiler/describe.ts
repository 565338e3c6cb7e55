const MAX_SHOWN = 60;

/** JSON text of a value, cut to a readable length (`"aaaa…"`, `{"a":1,…}`). */
export function showValue(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Array.isArray(value) ? '[…]' : '{…}';
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** The JSON type name of a value: `null`, `array`, `object`, `string`, `number`, `boolean`, … */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * How a received value reads in a message: its type, then the value itself for
 * primitives (`string "abc"`, `number 1.5`, `boolean true`), the type alone for
 * `null`, arrays and objects.
 */
export function describeValue(value: unknown): string {
  const type = typeName(value);
  if (type === 'null' || type === 'array' || type === 'object' || type === 'undefined') return type;
  return `${type} ${showValue(value)}`;
}

/** A list of allowed values for a message: `"a", "b", "c"` (long lists cut after 20). */
export function showList(values: readonly unknown[]): string {
  const shown = values.slice(0, 20).map(showValue).join(', ');
  return values.length > 20 ? `${shown}, … (${values.length} in all)` : shown;
}
