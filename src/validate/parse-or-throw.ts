/**
 * How every validator's `parse` follows from its `safeParse`: the value, or the error
 * thrown. Internal: `fino:validate` does not export it.
 */
import type { SafeParseResult } from './compile.ts';

/** The `parse` of a validator whose `safeParse` is given: returns the value, or throws the result's error. */
export function parseOrThrow<T>(safeParse: (data: unknown) => SafeParseResult<T>) {
  return (data: unknown): T => {
    const result = safeParse(data);
    if (!result.success) throw result.error;
    return result.value;
  };
}
