/**
 * The `stateKey` option of `mcpServer()`: the HMAC key that seals the `requestState` of
 * input-required results (call-state.ts). Several instances behind a load balancer, or
 * one restarted, answer each other's states when they share it. Decision 206.
 */
import { randomBytes } from 'node:crypto';

/** The fewest bytes a state key has: HMAC-SHA256's own key size. */
export const MIN_STATE_KEY_BYTES = 32;

/** A key as `mcpServer({ stateKey })` accepts it. */
export type StateKey = string | Uint8Array;

/**
 * The `stateKey` option checked: a string (UTF-8) or bytes of at least 32; absent, a
 * random key for this instance. Throws a `TypeError` that never shows the value.
 */
export function stateKey(value: unknown): StateKey {
  if (value === undefined) return randomBytes(MIN_STATE_KEY_BYTES);
  const size =
    typeof value === 'string'
      ? Buffer.byteLength(value)
      : value instanceof Uint8Array
        ? value.byteLength
        : -1;
  if (size < MIN_STATE_KEY_BYTES) {
    const received =
      size >= 0
        ? `${typeof value === 'string' ? 'a string' : 'a Uint8Array'} of ${size} bytes`
        : value === null
          ? 'null'
          : typeof value;
    throw new TypeError(
      `mcpServer: stateKey: expected a string or Uint8Array of at least ${MIN_STATE_KEY_BYTES} bytes (e.g. randomBytes(32).toString('base64url')), shared by every instance that may see a client's retry; received ${received}`,
    );
  }
  return typeof value === 'string' ? value : new Uint8Array(value as Uint8Array);
}
