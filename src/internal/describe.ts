/**
 * The "received …" part of an error message: a short description of any value, never
 * longer than about 50 characters, whatever the value (strings are cut at 40 characters,
 * objects and arrays are named, not printed).
 *
 * @example
 * ```ts
 * import { describe } from './describe.ts';
 *
 * describe('x'.repeat(100)); // '"xxxx…"' (40 characters, then …)
 * describe(42); // 'number 42'
 * describe({ a: 1 }); // 'an object'
 * ```
 */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${value}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
