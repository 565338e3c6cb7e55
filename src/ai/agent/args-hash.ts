import { createHash } from 'node:crypto';

/**
 * SHA-256 (hex) of a value's canonical JSON: object keys sorted at every level, so the
 * same arguments hash the same whatever order a model or a store wrote their keys in.
 * A pending call's `argsHash` is this hash of its arguments.
 *
 * @example
 * ```ts
 * import { argsHash } from 'fino/ai/agent';
 *
 * console.log(argsHash({ b: 1, a: 2 }) === argsHash({ a: 2, b: 1 })); // true
 * ```
 */
export function argsHash(args: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(args) ?? 'undefined')
    .digest('hex');
}

function canonicalJson(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((item) => canonicalJson(item) ?? 'null').join(',')}]`;
  const entries: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const item = canonicalJson((value as Record<string, unknown>)[key]);
    if (item !== undefined) entries.push(`${JSON.stringify(key)}:${item}`);
  }
  return `{${entries.join(',')}}`;
}
