/**
 * The `name` of a thrown value, read without throwing.
 */

/** `value.name` when it is a non-empty string; `undefined` otherwise or when reading it throws. */
export function errorName(value: unknown): string | undefined {
  try {
    const name: unknown = (value as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    return undefined;
  }
}
