import { canonicalJson } from '../../internal/canonical-json.ts';
import { sha256Hex } from '../../internal/sha256.ts';

/**
 * SHA-256 (hex) of a value's canonical JSON: object keys sorted at every level, so the
 * same arguments hash the same whatever order a model or a store wrote their keys in.
 * Missing arguments (`undefined`) hash the text `undefined`. Pending calls store this
 * hash, so it must not change for a given value (decision 067).
 *
 * @example
 * ```ts
 * import { argsHash } from 'fino:ai/agent';
 *
 * console.log(argsHash({ b: 1, a: 2 }) === argsHash({ a: 2, b: 1 })); // true
 * ```
 */
export function argsHash(args: unknown): string {
  return sha256Hex(canonicalJson(args) ?? 'undefined');
}
