import { createHash } from 'node:crypto';

/**
 * SHA-256 of a text's UTF-8 bytes, as 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * import { sha256Hex } from './sha256.ts';
 *
 * sha256Hex('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
