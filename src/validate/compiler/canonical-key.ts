/**
 * A string that is the same for any two values `jsonEqual` finds equal: JSON text with
 * object keys sorted, so key order does not count, `1` and `1.0` (one JS number) and `-0`
 * and `0` give one key, and `[1]` and `{"0":1}` differ. Values JSON has not (`undefined`,
 * bigints, functions) get a key by type, so equal keys only mark candidates: `uniqueItems`
 * confirms them with `jsonEqual`, finding duplicates in time linear in the data.
 */
export function canonicalKey(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let key = '[';
        for (let i = 0; i < value.length; i++)
          key += `${i === 0 ? '' : ','}${canonicalKey(value[i])}`;
        return `${key}]`;
      }
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object).sort();
      let key = '{';
      for (let i = 0; i < keys.length; i++)
        key += `${i === 0 ? '' : ','}${JSON.stringify(keys[i])}:${canonicalKey(object[keys[i]])}`;
      return `${key}}`;
    }
    default:
      return typeof value;
  }
}
